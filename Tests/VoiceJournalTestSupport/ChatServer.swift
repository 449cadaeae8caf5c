import Foundation

/// A real chat model, offline: `chat-server/chat-server` (llama-cpp-python's OpenAI-compatible
/// server with SmolLM2-135M-Instruct) on 127.0.0.1 at a port the system picks, for tests that
/// need true chat completions.
///
/// Prefer `ChatServer.shared()`: one server for the whole test process, started on first use,
/// because each costs a model load (a few seconds) and ~200 MB. It is started with
/// `--exit-with-stdin` and this process holds the other end of its stdin, so it ends with the
/// test process even when that process is killed; a server made with `init` also stops on
/// `deinit`.
public final class ChatServer: @unchecked Sendable {
    // @unchecked: every stored property is set in init and never reassigned; Process and
    // Pipe are only used again by stop(), which is idempotent and serialised by `lock`.
    public let port: Int
    /// The model's id, as the server's `GET /v1/models` names it.
    public let model: String
    /// Where the server's request log goes (its stderr).
    public let logURL: URL
    private let process: Process
    private let stdin: Pipe
    private let lock = NSLock()

    /// The OpenAI-style base URL: what the config file's `[chat]` table names as `base_url`.
    public var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// The python of the chat virtual environment: `$VOICEJOURNAL_CHAT_PYTHON`, else
    /// `.venv-chat/bin/python` in the package (made by chat-server/chat-setup).
    public static var python: URL {
        if let path = ProcessInfo.processInfo.environment["VOICEJOURNAL_CHAT_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return PackagePaths.root.appendingPathComponent(".venv-chat/bin/python")
    }

    /// The server every test in this process shares, started on first use.
    public static func shared() async throws -> ChatServer {
        try await SharedChatServer.instance.server()
    }

    /// Starts a server and waits until it answers `GET /v1/models` (blocks: call off the
    /// cooperative pool, or use `shared()`).
    public init(extraArguments: [String] = [], timeout: TimeInterval = 60) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.python.path) else {
            throw ChatServerFailure("no python at \(Self.python.path): run chat-server/chat-setup "
                + "(or set VOICEJOURNAL_CHAT_PYTHON)")
        }
        logURL = FileManager.default.temporaryDirectory
            .appendingPathComponent("chat-server-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        process = Process()
        process.executableURL = Self.python
        process.arguments = [PackagePaths.root.appendingPathComponent("chat-server/chat-server").path,
                             "--port", "0", "--exit-with-stdin"] + extraArguments
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: logURL)
        try process.run()

        // The first stdout line is the port, printed once the model is loaded (the socket is
        // bound before). A watchdog ends a server that never gets there, so the read cannot hang.
        let started = Date()
        let starting = process
        let watchdog = DispatchWorkItem { if starting.isRunning { starting.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let line = Self.readLine(stdout.fileHandleForReading)
        watchdog.cancel()
        guard let port = Int(line.trimmingCharacters(in: .whitespaces)), port > 0 else {
            process.terminate()
            process.waitUntilExit()
            let log = (try? String(contentsOf: logURL, encoding: .utf8)) ?? ""
            throw ChatServerFailure("chat-server did not start (first line \(line.debugDescription)): \(log)")
        }
        self.port = port
        do {
            model = try Self.waitForModels(port: port, until: started.addingTimeInterval(timeout))
        } catch {
            model = ""
            stop()
            throw ChatServerFailure("\(error) \(log)")
        }
    }

    /// Stops the server and waits for it to exit: its stdin closed first (--exit-with-stdin
    /// ends it), SIGTERM after 10 s.
    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        try? stdin.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The server's log so far, for failure messages.
    public var log: String { (try? String(contentsOf: logURL, encoding: .utf8)) ?? "" }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: logURL)
    }

    /// Polls `GET /v1/models` until it lists a model (uvicorn starts serving a moment after the
    /// port is printed; a request before that waits in the socket's backlog); returns its id.
    private static func waitForModels(port: Int, until deadline: Date) throws -> String {
        var lastError: Error?
        repeat {
            do {
                let body = try runTool("curl", ["-sf", "--max-time", "5", "http://127.0.0.1:\(port)/v1/models"])
                if let list = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
                   let models = list["data"] as? [[String: Any]], let id = models.first?["id"] as? String {
                    return id
                }
                lastError = ChatServerFailure("GET /v1/models answered \(body.prefix(200))")
            } catch {
                lastError = error
            }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        throw ChatServerFailure("chat-server on port \(port) never listed a model at /v1/models: "
            + "\(lastError.map { "\($0)" } ?? "")")
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

/// chat-server could not be started or did not answer.
public struct ChatServerFailure: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Starts the shared server once, on its own thread (its start blocks for a few seconds),
/// however many tests ask for it at the same time.
private actor SharedChatServer {
    static let instance = SharedChatServer()
    private var starting: Task<ChatServer, Error>?

    func server() async throws -> ChatServer {
        if let starting { return try await starting.value }
        let task = Task<ChatServer, Error> {
            try await withCheckedThrowingContinuation { continuation in
                Thread { continuation.resume(with: Result { try ChatServer() }) }.start()
            }
        }
        starting = task
        return try await task.value
    }
}
