import Foundation

/// A named pipe a hostile file names (a playlist's entry): whoever opens it for reading is
/// seen. A thread keeps trying a non-blocking open for writing, which succeeds only while
/// someone has the pipe open (or is waiting in open) for reading; it then feeds `feed`
/// (real audio, so a decoder that got that far goes on) and closes.
public final class WatchedPipe: @unchecked Sendable {
    // @unchecked: `wasOpenedFlag` and `stopped` are guarded by `lock`.
    public let url: URL
    private let lock = NSLock()
    private var wasOpenedFlag = false
    private var stopped = false

    public init(at url: URL, feed: Data) throws {
        self.url = url
        // A reader that closes early must not kill the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        guard mkfifo(url.path, 0o600) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let thread = Thread { [self] in
            while !isStopped {
                let descriptor = open(url.path, O_WRONLY | O_NONBLOCK)
                if descriptor < 0 {
                    Thread.sleep(forTimeInterval: 0.005)
                    continue
                }
                lock.withLock { wasOpenedFlag = true }
                _ = fcntl(descriptor, F_SETFL, 0)
                feed.withUnsafeBytes { raw in
                    guard let base = raw.baseAddress else { return }
                    _ = write(descriptor, base, raw.count)
                }
                close(descriptor)
            }
        }
        thread.start()
    }

    deinit { stop() }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Whether anything opened the pipe for reading so far.
    public var wasOpened: Bool { lock.withLock { wasOpenedFlag } }

    /// Stops watching.
    public func stop() { lock.withLock { stopped = true } }
}

/// Files that name other files, as an attacker would upload or leave in a folder.
public enum HostileAudio {
    /// An HLS playlist naming `target` (a local file) as its one segment; without
    /// `#EXT-X-ENDLIST` when `live`, so a player reloads it for ever.
    public static func hlsPlaylist(naming target: URL, live: Bool = false) -> Data {
        Data(("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:10.0,\n"
            + "file://\(target.path)\n" + (live ? "" : "#EXT-X-ENDLIST\n")).utf8)
    }

    /// An FFmpeg concat list naming `target`.
    public static func concatList(naming target: URL) -> Data {
        Data("ffconcat version 1.0\nfile '\(target.path)'\n".utf8)
    }

    /// A FLAC of `seconds` of digital silence at 8 kHz in frames of 65,535 samples: ten hours
    /// take about 72 KB, a decompression bomb. With `hideLength` the header's sample count is
    /// zeroed ("unknown"), so only decoding it shows how long it is.
    @discardableResult
    public static func silentFLAC(at url: URL, seconds: Int, hideLength: Bool = false) throws -> URL {
        try runTool("ffmpeg", ["-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=8000:cl=mono", "-t", "\(seconds)",
                               "-c:a", "flac", "-frame_size", "65535", url.path])
        if hideLength {
            // STREAMINFO follows "fLaC" and a 4-byte block header: its 36-bit sample count is
            // the low 4 bits of byte 21 and bytes 22-25 of the file.
            var bytes = [UInt8](try Data(contentsOf: url))
            bytes[21] &= 0xF0
            for index in 22...25 { bytes[index] = 0 }
            try Data(bytes).write(to: url)
        }
        return url
    }

    /// CPU seconds (user + system) process `pid` has used so far, from /proc/<pid>/stat.
    public static func cpuSeconds(of pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
