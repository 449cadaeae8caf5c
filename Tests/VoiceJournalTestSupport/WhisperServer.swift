import Foundation

/// A real Whisper, offline: `whisper-server/whisper-server` (faster-whisper) on 127.0.0.1 at a port the
/// system picks, for tests that need true speech recognition.
///
/// Prefer `WhisperServer.shared()` (tiny.en, the fastest) or `WhisperServer.shared(model: .base)`
/// (multilingual, translates): one server per model for the whole test process, each started
/// on first use, because each costs a model load and a few hundred MB. It is started with
/// `--exit-with-stdin` and this process holds the other end of its stdin, so it ends with the
/// test process even when that process is killed; a server made with `init` also stops on
/// `deinit`.
public final class WhisperServer: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never reassigned; Process and
    // Pipe are only used again by stop(), which is idempotent and serialised by `lock`.
    public let port: Int
    /// The model this server runs.
    public let model: Model
    /// Where the server's request log goes (its stderr).
    public let logURL: URL
    private let process: Process
    private let stdin: Pipe
    private let lock = NSLock()

    /// The OpenAI-style base URL to give voicejournal as `OPENAI_BASE_URL`.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The python of the whisper virtual environment: `$VOICEJOURNAL_WHISPER_PYTHON`, else
    /// `.venv-whisper/bin/python` in the package (made by whisper-server/whisper-setup).
    public static var python: URL {
        if let path = ProcessInfo.processInfo.environment["VOICEJOURNAL_WHISPER_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return PackagePaths.root.appendingPathComponent(".venv-whisper/bin/python")
    }

    /// A model whisper-server/whisper-setup installs.
    public enum Model: String, Sendable, CaseIterable {
        /// English only, the fastest: what most tests use.
        case tinyEn = "tiny.en"
        /// Multilingual and able to translate, about twice tiny.en's time.
        case base
    }

    /// The server of `model` every test in this process shares, started on first use.
    public static func shared(model: Model = .tinyEn) async throws -> WhisperServer {
        try await SharedWhisperServer.instance.server(model: model)
    }

    /// Starts a server and waits until it answers `GET /health` (blocks: call off the
    /// cooperative pool, or use `shared()`).
    public init(model: Model = .tinyEn, extraArguments: [String] = []) throws {
        self.model = model
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw WhisperServerFailure("no python at \(Self.python.path): run whisper-server/whisper-setup "
                + "(or set VOICEJOURNAL_WHISPER_PYTHON)")
        }
        logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("whisper-server-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = Self.python
        process.arguments = [PackagePaths.root.appendingPathComponent("whisper-server/whisper-server").path,
                             "--port", "0", "--model", model.rawValue, "--exit-with-stdin"] + extraArguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logURL)
        try process.run()

        // The first stdout line is the port, printed once the model is loaded and the socket
        // listens. A watchdog ends a server that never gets there, so the read cannot hang.
        let starting = process
        let watchdog = DispatchWorkItem { if starting.isRunning { starting.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        let line = Self.readLine(stdout.fileHandleForReading)
        watchdog.cancel()
        guard let port = Int(line.trimmingCharacters(in: .whitespaces)), port > 0 else {
            process.terminate()
            process.waitUntilExit()
            let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            throw WhisperServerFailure("whisper-server did not start (first line \(line.debugDescription)): \(log)")
        }
        self.port = port
        try waitForHealth()
    }

    /// Stops the server (SIGTERM) and waits for it to exit.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? stdin.fileHandleForWriting.close()
    }

    /// The server's log so far, for failure messages.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: logURL)
    }

    private func waitForHealth() throws {
        var lastError: Error?
        for _ in 0..<50 {
            do {
                let body = try runTool("curl", ["-sf", "--max-time", "5", "http://127.0.0.1:\(port)/health"])
                if body.contains("\"ok\"") { return }
            } catch {
                lastError = error
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        stop()
        throw WhisperServerFailure("whisper-server on port \(port) never answered /health: "
            + "\(lastError.map { "\($0)" } ?? "") \(log)")
    }

    private static func readLine(_ handle: FileHandle) -> String {
        var bytes = Data()
        while true {
            let chunk = handle.readData(ofLength: 1)  // byte by byte: only the first line is ours
            if chunk.isEmpty || chunk == Data("\n".utf8) { break }
            bytes.append(chunk)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// whisper-server could not be started or did not answer.
public struct WhisperServerFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Starts each model's shared server once, on its own thread (its start blocks for a second or
/// two), however many tests ask for it at the same time.
private actor SharedWhisperServer {
    static let instance = SharedWhisperServer()
    private var starting: [WhisperServer.Model: Task<WhisperServer, Error>] = [:]

    func server(model: WhisperServer.Model) async throws -> WhisperServer {
        if let task = starting[model] { return try await task.value }
        let task = Task<WhisperServer, Error> {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try WhisperServer(model: model) }) }.start()
            }
        }
        starting[model] = task
        return try await task.value
    }
}
