import Foundation

/// Where voicejournal keeps its database and audio: a private folder (mode 0700).
public struct DataHome: Sendable, Equatable {
    /// The folder itself.
    public let url: URL

    public init(url: URL) { self.url = url }

    /// The SQLite database file inside the home.
    public var databaseURL: URL { url.appendingPathComponent("voicejournal.sqlite") }

    /// The folder recordings are written to: `audio/YYYY/MM/` below the home.
    public func audioFolder(for date: Date, calendar: Calendar = .current) -> URL {
        let parts = calendar.dateComponents([.year, .month], from: date)
        return url.appendingPathComponent("audio")
            .appendingPathComponent(String(format: "%04d", parts.year ?? 1970))
            .appendingPathComponent(String(format: "%02d", parts.month ?? 1))
    }

    /// Resolves the home: the `--home` flag, else `$VOICEJOURNAL_HOME`,
    /// else `$XDG_DATA_HOME/voicejournal`, else `~/.local/share/voicejournal`.
    public static func resolve(flag: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> DataHome {
        if let flag, !flag.isEmpty { return DataHome(url: URL(fileURLWithPath: expandTilde(flag))) }
        if let home = environment["VOICEJOURNAL_HOME"], !home.isEmpty {
            return DataHome(url: URL(fileURLWithPath: expandTilde(home)))
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            return DataHome(url: URL(fileURLWithPath: xdg).appendingPathComponent("voicejournal"))
        }
        let user = environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return DataHome(url: user.appendingPathComponent(".local/share/voicejournal"))
    }

    /// Creates the home (and its parents) if needed and makes sure it is private (0700).
    public func create() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }

    /// Whether this process may write in the home and its database (false on a read-only
    /// mount or a folder without write permission); a missing home counts as not writable.
    public var isWritable: Bool {
        guard access(url.path, W_OK) == 0 else { return false }
        let database = databaseURL.path
        return !FileManager.default.fileExists(atPath: database) || access(database, W_OK) == 0
    }

    /// The file standing where the home or one of its parent folders should be, if any:
    /// such a home can be neither read nor created.
    public var fileInTheWay: URL? {
        var candidate = url.standardizedFileURL
        while candidate.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : candidate
            }
            candidate.deleteLastPathComponent()
        }
        return nil
    }

    /// Creates a folder below the home, private like the home itself.
    public func createPrivateFolder(_ folder: URL) throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    private static func expandTilde(_ path: String) -> String {
        (path as NSString).expandingTildeInPath
    }
}
