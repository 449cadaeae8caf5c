import VoiceJournalCCurl
import Foundation

/// A failed libcurl call: which function or option, and libcurl's own words for it.
package struct CurlFailure: Error, CustomStringConvertible {
    package let code: CURLcode
    package let function: String
    /// The detail libcurl wrote to the error buffer, when it wrote one.
    package let detail: String
    /// The system's errno of a failed connect (`CURLINFO_OS_ERRNO`; 0: none), e.g. ECONNREFUSED.
    package var osErrno: Int32 = 0

    package var description: String {
        let summary = String(cString: ccurl_easy_strerror(code))
        return detail.isEmpty || detail == summary ? "\(function): \(summary)" : "\(function): \(summary) (\(detail))"
    }
}

/// One libcurl easy handle (`CURL*`), cleaned up on deinit. Keeping the handle between
/// requests keeps its connection cache, so a worker reuses one connection to the server.
///
/// Not Sendable: a handle belongs to the one thread that performs transfers on it.
package final class CurlEasy {
    package let handle: UnsafeMutableRawPointer
    /// libcurl writes a readable error message here (CURLOPT_ERRORBUFFER) during a transfer.
    private let errorBuffer: UnsafeMutablePointer<CChar>

    /// `curl_global_init` must run once before any handle exists, and is not safe to race:
    /// a static `let` runs its initialiser exactly once, guarded by the runtime.
    private static let globalInit: CURLcode = ccurl_global_init(Int(CURL_GLOBAL_ALL))

    package init() throws {
        guard ccurl_load() else {
            let why = ccurl_load_error().map { String(cString: $0) } ?? "unknown reason"
            throw CurlFailure(code: CURLE_FAILED_INIT, function: "libcurl.so.4",
                              detail: "\(why); is the libcurl4 package installed?")
        }
        let global = Self.globalInit
        guard global == CURLE_OK else { throw CurlFailure(code: global, function: "curl_global_init", detail: "") }
        guard let handle = ccurl_easy_init() else {
            throw CurlFailure(code: CURLE_FAILED_INIT, function: "curl_easy_init", detail: "")
        }
        self.handle = handle
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        ccurl_easy_cleanup(handle)
        errorBuffer.deallocate()
    }

    /// Clears every option (and the error buffer) but keeps live connections for reuse.
    package func reset() throws {
        ccurl_easy_reset(handle)
        errorBuffer[0] = 0
        try check(ccurl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer), "CURLOPT_ERRORBUFFER")
    }

    package func set(_ option: CURLoption, _ value: Int) throws {
        try check(ccurl_setopt_long(raw, option, value), "curl_easy_setopt(\(option.rawValue))")
    }

    package func set(_ option: CURLoption, _ value: String) throws {
        // libcurl copies string options (since 7.17), so the temporary C string may go away.
        try value.withCString { try check(ccurl_setopt_string(raw, option, $0), "curl_easy_setopt(\(option.rawValue))") }
    }

    package func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) throws {
        try check(ccurl_setopt_pointer(raw, option, pointer), "curl_easy_setopt(\(option.rawValue))")
    }

    package func set(_ option: CURLoption, callback: ccurl_data_callback) throws {
        try check(ccurl_setopt_data_callback(raw, option, callback), "curl_easy_setopt(\(option.rawValue))")
    }

    package func setProgress(_ callback: ccurl_progress_callback) throws {
        try check(ccurl_setopt_progress_callback(raw, callback), "CURLOPT_XFERINFOFUNCTION")
    }

    /// Sets the request headers; `headers` must stay alive until the transfer ends.
    package func set(headers: CurlHeaderList) throws {
        try check(ccurl_setopt_slist(raw, CURLOPT_HTTPHEADER, headers.list), "CURLOPT_HTTPHEADER")
    }

    /// Sets a list option (`CURLOPT_MAIL_RCPT`, …); `list` must stay alive until the transfer ends.
    package func set(_ option: CURLoption, list: CurlHeaderList) throws {
        try check(ccurl_setopt_slist(raw, option, list.list), "curl_easy_setopt(\(option.rawValue))")
    }

    /// Sets CURLOPT_DEBUGFUNCTION (nil: none); libcurl calls it only while CURLOPT_VERBOSE is 1.
    package func setDebug(_ callback: ccurl_debug_callback?) throws {
        try check(ccurl_setopt_debug_callback(raw, callback), "CURLOPT_DEBUGFUNCTION")
    }

    /// Sets the multipart body; `mime` must stay alive until the transfer ends.
    func set(mime: CurlMime) throws {
        try check(ccurl_setopt_mime(raw, mime.mime), "CURLOPT_MIMEPOST")
    }

    /// Runs the transfer, blocking the calling thread until it ends. Call it from a thread
    /// of its own, never from Swift's cooperative pool.
    package func perform() throws {
        errorBuffer[0] = 0
        do {
            try check(ccurl_easy_perform(raw), "curl_easy_perform")
        } catch var failure as CurlFailure {
            var errno = 0
            _ = ccurl_getinfo_long(raw, CURLINFO_OS_ERRNO, &errno)
            failure.osErrno = Int32(truncatingIfNeeded: errno)
            throw failure
        }
    }

    /// The HTTP status of the last response (0 if none arrived).
    package var responseCode: Int {
        var code = 0
        _ = ccurl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &code)
        return code
    }

    private var raw: UnsafeMutableRawPointer { handle }

    private func check(_ code: CURLcode, _ function: String) throws {
        guard code != CURLE_OK else { return }
        throw CurlFailure(code: code, function: function, detail: String(cString: errorBuffer))
    }
}

/// One `curl_mime*` multipart body, freed on deinit. Parts read their data when the
/// transfer runs: a file part streams from disk and is never held in memory.
final class CurlMime {
    let mime: OpaquePointer

    init(for easy: CurlEasy) throws {
        guard let mime = ccurl_mime_init(easy.handle) else {
            throw CurlFailure(code: CURLE_OUT_OF_MEMORY, function: "curl_mime_init", detail: "")
        }
        self.mime = mime
    }

    deinit { ccurl_mime_free(mime) }

    /// Adds a text field.
    func addField(name: String, value: String) throws {
        let part = try addPart(name: name)
        try check(value.withCString { ccurl_mime_data_string(part, $0) }, "curl_mime_data")
    }

    /// Adds a file field whose bytes libcurl reads from `path` while sending.
    func addFile(name: String, path: String, filename: String, contentType: String) throws {
        let part = try addPart(name: name)
        try check(ccurl_mime_filedata(part, path), "curl_mime_filedata")
        try check(ccurl_mime_filename(part, filename), "curl_mime_filename")
        try check(ccurl_mime_type(part, contentType), "curl_mime_type")
    }

    private func addPart(name: String) throws -> OpaquePointer {
        guard let part = ccurl_mime_addpart(mime) else {
            throw CurlFailure(code: CURLE_OUT_OF_MEMORY, function: "curl_mime_addpart", detail: "")
        }
        try check(ccurl_mime_name(part, name), "curl_mime_name")
        return part
    }

    private func check(_ code: CURLcode, _ function: String) throws {
        guard code != CURLE_OK else { return }
        throw CurlFailure(code: code, function: function, detail: "")
    }
}

/// A `curl_slist` of strings (request headers, mail recipients), freed on deinit.
package final class CurlHeaderList {
    package private(set) var list: UnsafeMutablePointer<curl_slist>?

    package init(_ headers: [String]) throws {
        for header in headers {
            guard let appended = ccurl_slist_append(list, header) else {
                ccurl_slist_free_all(list)
                throw CurlFailure(code: CURLE_OUT_OF_MEMORY, function: "curl_slist_append", detail: "")
            }
            list = appended
        }
    }

    deinit { ccurl_slist_free_all(list) }
}
