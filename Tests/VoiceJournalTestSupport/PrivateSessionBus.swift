import Foundation

/// A session bus of the test's own: `dbus-daemon` with a configuration that listens on
/// `<folder>/bus` (so a test may also find it as `$XDG_RUNTIME_DIR/bus`), lets anyone own any
/// name and starts no service (no service folders: a name nobody owns is
/// `ServiceUnknown`, whatever desktop services the machine has). Stopped on release.
public final class PrivateSessionBus: @unchecked Sendable {
    // @unchecked: every stored property is immutable after init; the processes are only
    // terminated (idempotently) from stop()/deinit.
    /// The bus's address, as `DBUS_SESSION_BUS_ADDRESS` gives it.
    public let address: String
    /// The folder holding the bus's socket (`bus`): a runtime folder for `XDG_RUNTIME_DIR`.
    public let runtimeFolder: URL
    private let folder: TemporaryFolder
    private let daemon: Process

    public init() throws {
        folder = try TemporaryFolder("session-bus")
        runtimeFolder = folder.path("runtime")
        try FileManager.default.createDirectory(at: runtimeFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let configuration = folder.path("bus.conf")
        try Data("""
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(runtimeFolder.appendingPathComponent("bus").path)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """.utf8).write(to: configuration)
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--config-file=\(configuration.path)", "--nofork", "--nopidfile", "--print-address=1"]
        let output = Pipe()
        daemon.standardOutput = output
        daemon.standardError = FileHandle.standardError
        daemon.standardInput = FileHandle.nullDevice
        try daemon.run()
        let line = Self.firstLine(of: output.fileHandleForReading)
        guard line.hasPrefix("unix:") else {
            kill(daemon.processIdentifier, SIGKILL)
            throw ToolFailure(command: "dbus-daemon", status: -1, stderr: "printed no address (\(line))")
        }
        address = line
    }

    deinit { stop() }

    /// Stops the bus (idempotent): every connection to it ends. SIGKILL: the daemon inherits
    /// the test thread's blocked signals, SIGTERM among them, and has no other way to be told.
    public func stop() {
        guard daemon.isRunning else { return }
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
    }

    /// The environment that names this bus and no other: `DBUS_SESSION_BUS_ADDRESS`, and a
    /// runtime folder without a bus socket (so a machine's own `$XDG_RUNTIME_DIR/bus` is never found).
    public var environment: [String: String] {
        ["DBUS_SESSION_BUS_ADDRESS": address, "XDG_RUNTIME_DIR": folder.path("no-bus").path]
    }

    /// An environment naming no session bus at all.
    public static let noBusEnvironment = ["DBUS_SESSION_BUS_ADDRESS": "", "XDG_RUNTIME_DIR": "/nonexistent-runtime-folder"]

    /// Reads up to the first newline (or the end).
    static func firstLine(of handle: FileHandle) -> String {
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        return String(decoding: line, as: UTF8.self).components(separatedBy: "\n")[0].trimmingCharacters(in: .whitespaces)
    }
}

/// The freedesktop notification service of the tests (Tests/Servers/notification_service.py)
/// on a `PrivateSessionBus`: owns `org.freedesktop.Notifications`, answers Notify with ids
/// from 1 and records every call. Stopped on release (its standard input closed).
public final class TestNotificationService: @unchecked Sendable {
    // @unchecked: immutable after init; the process is only stopped (idempotently).
    /// How the service answers Notify.
    public enum Behaviour: Sendable {
        /// With an id; its capabilities include body-markup.
        case shows
        /// With an id; no body-markup among its capabilities.
        case showsPlainText
        /// With an error (org.freedesktop.DBus.Error.Failed).
        case refuses
        /// Never.
        case hangs
    }

    /// One Notify call as the service received it.
    public struct Call: Decodable, Sendable, Equatable {
        public let app_name: String
        public let replaces_id: Int
        public let app_icon: String
        public let summary: String
        public let body: String
        public let actions: [String]
        public let hints: [String]
        public let expire_timeout: Int
    }

    private let process: Process
    private let input = Pipe()
    private let folder: TemporaryFolder
    private let recordURL: URL

    public static var script: URL { PackagePaths.root.appendingPathComponent("Tests/Servers/notification_service.py") }

    /// Starts the service on `bus` and returns once it owns its name.
    public init(on bus: PrivateSessionBus, _ behaviour: Behaviour = .shows) throws {
        folder = try TemporaryFolder("notifications")
        recordURL = folder.path("notifications.jsonl")
        process = Process()
        // Debian's python3: it has python3-dbus and python3-gi; a pyenv or venv python has not.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        var arguments = [Self.script.path, recordURL.path]
        switch behaviour {
        case .shows: break
        case .showsPlainText: arguments.append("--no-markup")
        case .refuses: arguments.append("--refuse")
        case .hangs: arguments.append("--hang")
        }
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.merge(bus.environment) { $1 }
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        process.standardInput = input
        try process.run()
        let line = PrivateSessionBus.firstLine(of: output.fileHandleForReading)
        guard line == "ready" else {
            stop()
            throw ToolFailure(command: "notification_service.py", status: -1, stderr: "did not say it was ready (\(line))")
        }
    }

    deinit { stop() }

    /// Stops the service (idempotent): its name leaves the bus.
    public func stop() {
        guard process.isRunning else { return }
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Every Notify call so far, in order.
    public func calls() throws -> [Call] {
        guard let text = try? String(contentsOf: recordURL, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Call.self, from: Data($0.utf8)) }
    }
}
