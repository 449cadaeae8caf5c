import Foundation

/// What a finished `voicejournal` run left behind.
public struct CommandResult: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    /// stdout decoded as JSON (for `--json` output).
    public func json() throws -> Any {
        try JSONSerialization.jsonObject(with: Data(stdout.utf8), options: [.fragmentsAllowed])
    }
}

/// Runs the built `voicejournal` binary as a subprocess, the way a user would, against a
/// private temporary home.
public struct VoicejournalBinary: Sendable {
    public let home: URL
    /// Extra environment for every run (e.g. OPENAI_BASE_URL, ALSA_CONFIG_PATH).
    public var environment: [String: String]
    /// A command line the binary is started through (e.g. `DiskLimits.fileSizeLimit`); empty: started directly.
    public var launcher: [String]

    /// A launcher that starts the command on a pseudo-terminal (python's `pty`), as a person at
    /// a shell runs it: its standard input and output are a TTY, and what the terminal shows
    /// comes back on stdout.
    public static let onATerminal = ["python3", "-c", "import os, pty, sys; sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[1:])))"]

    public init(home: URL, environment: [String: String] = [:], launcher: [String] = []) {
        self.home = home
        self.environment = environment
        self.launcher = launcher
    }

    /// `$XDG_CONFIG_HOME` for every run: `voicejournal/config.toml` in it is the default config file.
    public var configFolder: URL { home.deletingLastPathComponent().appendingPathComponent("config") }

    /// Writes `text` as the config file runs find by default, and returns its URL.
    @discardableResult
    public func writeConfig(_ text: String) throws -> URL {
        let url = configFolder.appendingPathComponent("voicejournal/config.toml")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url
    }

    public static var executable: URL { PackagePaths.products.appendingPathComponent("voicejournal") }

    /// Starts `voicejournal --home HOME args...` without waiting (for kill and signal tests).
    /// stdout and stderr go to files in the home's parent so large outputs never block the child.
    public func start(_ arguments: [String], environment extra: [String: String] = [:], stdin: FileHandle? = nil) throws -> RunningCommand {
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = Self.executable
            process.arguments = ["--home", home.path] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [Self.executable.path, "--home", home.path] + arguments
        }
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = "1"
        // The user's own config file must not steer tests: a folder next to the home that
        // holds none, unless a test writes one there or names another.
        env["XDG_CONFIG_HOME"] = configFolder.path
        env.merge(environment) { $1 }
        env.merge(extra) { $1 }
        process.environment = env
        let outputs = FileManager.default.temporaryDirectory.appendingPathComponent("vj-out-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputs, withIntermediateDirectories: true)
        let outURL = outputs.appendingPathComponent("stdout"), errURL = outputs.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = stdin ?? FileHandle.nullDevice
        try process.run()
        return RunningCommand(process: process, stdoutURL: outURL, stderrURL: errURL)
    }

    /// Runs `voicejournal --home HOME args...` to completion.
    @discardableResult
    public func run(_ arguments: [String], environment extra: [String: String] = [:], stdin: FileHandle? = nil) throws -> CommandResult {
        try start(arguments, environment: extra, stdin: stdin).wait()
    }
}

/// A `voicejournal` process started by `VoicejournalBinary.start`.
public final class RunningCommand: @unchecked Sendable {
    // @unchecked: Process is used from the test's task only; the URLs are immutable.
    public let process: Process
    let stdoutURL: URL
    let stderrURL: URL

    init(process: Process, stdoutURL: URL, stderrURL: URL) {
        self.process = process
        self.stdoutURL = stdoutURL
        self.stderrURL = stderrURL
    }

    /// Sends a signal (SIGINT, SIGTERM, SIGKILL).
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// What the process has written to stdout so far (a server's announcements).
    public var stdoutSoFar: String { (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "" }

    /// What the process has written to stderr so far.
    public var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    /// Waits for the process to end and collects its output.
    public func wait() -> CommandResult {
        process.waitUntilExit()
        let out = (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? ""
        let err = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(at: stdoutURL.deletingLastPathComponent())
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CommandResult(status: status, stdout: out, stderr: err)
    }
}
