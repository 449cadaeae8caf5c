import VoiceJournalCCurl
import Foundation

/// The state of one transfer that libcurl's C callbacks write into: the response body and
/// headers, the upload's progress for the low-speed abort, and the answer's deadline.
/// libcurl calls the callbacks on the thread running `curl_easy_perform`, one at a time, so
/// no locking is needed.
package final class Transfer {
    /// Transcripts are small; a larger answer is not one, and is not kept in memory.
    package static let bodyLimit = 16 << 20

    package private(set) var body = Data()
    /// Headers of the final response, names lowercased.
    package private(set) var headers: [String: String] = [:]
    package private(set) var bodyTooLarge = false
    package private(set) var stalled = false
    /// The whole upload was sent, and when (system uptime).
    private(set) var uploadDoneAt: TimeInterval?
    /// The server took the whole upload and its answer did not arrive within `answerDeadline`.
    package private(set) var answerLate = false
    /// The final response's status, from its status line (0 before one came).
    package private(set) var status = 0
    /// Told each piece of the body as it comes, for an answer read while it streams (server-
    /// sent events); false stops the transfer. While pieces come, the answer is not late:
    /// the deadline counts from the last one.
    package var receive: ((Data) -> Bool)?
    private var lastPieceAt: TimeInterval?

    private let abort: AbortSignal
    private let lowSpeedLimit: Int
    private let lowSpeedTime: Double
    private var windowStart = ProcessInfo.processInfo.systemUptime
    private var windowBytes: Int64 = 0
    /// Seconds the answer may take once the upload is sent; nil: only the overall timeout.
    private let answerDeadline: Double?

    package init(abort: AbortSignal, lowSpeedLimit: Int, lowSpeedTime: Double, answerDeadline: Double? = nil) {
        self.abort = abort
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.answerDeadline = answerDeadline
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> Transfer? {
        userdata.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
    }

    /// CURLOPT_WRITEFUNCTION: appends body bytes; returning less than given stops the transfer.
    package static let receiveBody: ccurl_data_callback = { buffer, size, count, userdata in
        let length = size * count
        guard let transfer = Transfer.from(userdata), let buffer else { return 0 }
        guard transfer.body.count + length <= Transfer.bodyLimit else {
            transfer.bodyTooLarge = true
            return 0
        }
        buffer.withMemoryRebound(to: UInt8.self, capacity: length) { transfer.body.append($0, count: length) }
        if let receive = transfer.receive {
            transfer.lastPieceAt = ProcessInfo.processInfo.systemUptime
            let piece = buffer.withMemoryRebound(to: UInt8.self, capacity: length) { Data(bytes: $0, count: length) }
            guard receive(piece) else { return 0 }
        }
        return length
    }

    /// CURLOPT_HEADERFUNCTION: one header line per call. A new status line (after an interim
    /// `100 Continue`) starts a fresh set, so only the final response's headers remain.
    package static let receiveHeader: ccurl_data_callback = { buffer, size, count, userdata in
        let length = size * count
        guard let transfer = Transfer.from(userdata), let buffer else { return 0 }
        let line = buffer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
        if line.hasPrefix("HTTP/") {
            transfer.headers = [:]
            transfer.status = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            transfer.headers[name] = value
        }
        return length
    }

    /// CURLOPT_XFERINFOFUNCTION: called about once a second (and on every chunk), also while
    /// nothing moves. Non-zero stops the transfer: when the run is ending, when the upload
    /// has stalled, or when the answer is late.
    package static let progress: ccurl_progress_callback = { userdata, _, _, uploadTotal, uploadNow in
        guard let transfer = Transfer.from(userdata) else { return 1 }
        if transfer.abort.isRaised { return 1 }
        guard transfer.checkSpeed(uploadTotal: Int64(uploadTotal), uploadNow: Int64(uploadNow)) else { return 1 }
        return transfer.checkAnswer(uploadTotal: Int64(uploadTotal), uploadNow: Int64(uploadNow)) ? 0 : 1
    }

    /// False once the upload has been sent whole and the answer has not come within the
    /// deadline: a server that takes uploads and never answers would otherwise hold the
    /// worker (and the job) until the overall timeout, which must allow for slow uploads.
    private func checkAnswer(uploadTotal: Int64, uploadNow: Int64) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        if uploadDoneAt == nil, uploadTotal > 0, uploadNow >= uploadTotal { uploadDoneAt = now }
        guard let answerDeadline, let done = uploadDoneAt, now - max(done, lastPieceAt ?? 0) > answerDeadline else { return true }
        answerLate = true
        return false
    }

    /// False once an unfinished upload has moved too few bytes over a whole window. While
    /// the server is working on the answer nothing moves, and that is not a stall: the
    /// overall timeout covers it.
    private func checkSpeed(uploadTotal: Int64, uploadNow: Int64) -> Bool {
        let now = ProcessInfo.processInfo.systemUptime
        guard uploadTotal > 0, uploadNow < uploadTotal else {
            windowStart = now
            windowBytes = uploadNow
            return true
        }
        let elapsed = now - windowStart
        guard elapsed >= lowSpeedTime else { return true }
        if Double(uploadNow - windowBytes) < Double(lowSpeedLimit) * elapsed {
            stalled = true
            return false
        }
        windowStart = now
        windowBytes = uploadNow
        return true
    }
}

extension CurlEasy {
    /// Sets what every request of ours shares, after a reset: the URL, http(s) only, no
    /// signals (worker threads must not get SIGALRM from the resolver's timeouts), TCP
    /// keep-alive, the timeouts, the user agent, the headers (`headers` must outlive the
    /// transfer), and `transfer` as the receiver of the answer and the watch on its progress.
    package func prepare(url: String, connectTimeout: Double, timeout: Double, userAgent: String,
                         headers: CurlHeaderList, transfer: Transfer) throws {
        try reset()
        try set(CURLOPT_URL, url)
        try set(CURLOPT_PROTOCOLS_STR, "http,https")
        try set(CURLOPT_NOSIGNAL, 1)
        try set(CURLOPT_TCP_KEEPALIVE, 1)
        try set(CURLOPT_CONNECTTIMEOUT_MS, Int(connectTimeout * 1000))
        try set(CURLOPT_TIMEOUT_MS, Int(timeout * 1000))
        try set(CURLOPT_USERAGENT, userAgent)
        try set(headers: headers)
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        try set(CURLOPT_WRITEFUNCTION, callback: Transfer.receiveBody)
        try set(CURLOPT_WRITEDATA, pointer: context)
        try set(CURLOPT_HEADERFUNCTION, callback: Transfer.receiveHeader)
        try set(CURLOPT_HEADERDATA, pointer: context)
        try set(CURLOPT_NOPROGRESS, 0)
        try setProgress(Transfer.progress)
        try set(CURLOPT_XFERINFODATA, pointer: context)
    }
}
