import Foundation
import VoiceJournalSystem

/// Which files of the data home are the journal's own, judged by where a path really lies
/// (symbolic links resolved), never by how it is spelled.
///
/// voicejournal makes files in two folders only: recordings under `audio/` and encoded
/// chunks and live pieces under `tmp/`. A path a row names counts as the journal's only when
/// it lies in one of them, because a row may come from an imported (perhaps crafted or
/// damaged) export: the database, the home itself, `incoming/` and every folder are never a
/// recording's file. `audio/` may be a symbolic link to a bigger disk; it is resolved once,
/// here, and what lies under its target is the journal's.
package struct HomeFiles: Sendable {
    /// Where a path lies.
    package enum Place: Sendable, Equatable {
        /// Under the home's audio folder: a recording voicejournal made.
        case audio
        /// Under the home's `tmp/`: a chunk or live piece voicejournal encoded.
        case temporary
        /// Elsewhere in the data home (the database, the home itself, `incoming/`, `audio/`
        /// itself): never a recording's or a chunk's file.
        case elsewhereInHome
        /// Outside the data home (a folder given to `transcribe`): never deleted.
        case outside
        /// Not an absolute path free of `.` and `..` parts and control characters.
        case malformed
    }

    private let home: String
    private let spelledHome: String
    /// Nil when the folder leads to the home itself or above it (a link to `/`): nothing
    /// under it is then the journal's alone.
    private let audio: String?
    private let temporary: String?
    /// The database and SQLite's files beside it.
    private let databaseFiles: Set<String>

    /// The rules for `home`, its folders resolved now (once for a whole delete or import).
    package init(_ home: DataHome) {
        spelledHome = home.url.standardizedFileURL.path
        self.home = Self.resolved(spelledHome)
        let root = self.home
        func own(_ name: String) -> String? {
            let folder = Self.resolved(home.url.appendingPathComponent(name).standardizedFileURL.path)
            return folder == root || Self.path(root, isUnder: folder) ? nil : folder
        }
        audio = own("audio")
        temporary = own("tmp")
        let database = Self.resolved(home.databaseURL.standardizedFileURL.path)
        databaseFiles = Set(["", "-wal", "-shm", "-journal"].map { database + $0 })
    }

    /// Where `path` lies. Its folder is resolved, its last part is not: a symbolic link named
    /// as a recording is judged where it stands, not where it points.
    package func place(of path: String) -> Place {
        guard Self.isWellFormed(path) else { return .malformed }
        let name = (path as NSString).lastPathComponent
        let real = Self.join(Self.resolved((path as NSString).deletingLastPathComponent), name)
        if databaseFiles.contains(real) || real == home || real == audio || real == temporary { return .elsewhereInHome }
        if let audio, Self.path(real, isUnder: audio) { return .audio }
        if let temporary, Self.path(real, isUnder: temporary) { return .temporary }
        if Self.path(real, isUnder: home) || Self.path(path, isUnder: spelledHome) { return .elsewhereInHome }
        return .outside
    }

    /// Of chunk files a row names, the ones voicejournal made (under `tmp/`): the only ones a
    /// runner removes when their chunks are done. A chunk of an imported journal may name a
    /// file elsewhere (the old home's), which stays.
    package func ownChunkFiles(_ paths: [String]) -> [String] {
        paths.filter { place(of: $0) == .temporary }
    }

    /// What `removeFile(_:from:)` did.
    package enum Removal: Sendable, Equatable {
        case removed
        /// There was nothing at the path.
        case missing
        /// The path was left alone: why, in words.
        case refused(String)
        /// The file could not be removed: the system's reason.
        case failed(String)
    }

    /// Removes the regular file at `path` if it lies in `place` (`.audio` or `.temporary`):
    /// never a folder (`unlink` cannot remove one), never what a symbolic link points to, never
    /// the database.
    package func removeFile(_ path: String, from place: Place) -> Removal {
        guard place == .audio || place == .temporary, self.place(of: path) == place else {
            return .refused("not a file voicejournal made in its \(place == .temporary ? "tmp" : "audio") folder")
        }
        var status = stat()
        guard lstat(path, &status) == 0 else { return errno == ENOENT ? .missing : .failed(SystemError.text()) }
        guard Self.isRegular(status) else { return .refused("not a regular file; voicejournal removes only files it made") }
        guard unlink(path) == 0 else { return errno == ENOENT ? .missing : .failed(SystemError.text()) }
        return .removed
    }

    /// Whether something other than a regular file (a folder, a symbolic link, a device)
    /// stands at `path`.
    static func isNotARegularFile(_ path: String) -> Bool {
        var status = stat()
        guard lstat(path, &status) == 0 else { return false }
        return !isRegular(status)
    }

    private static func isRegular(_ status: stat) -> Bool {
        status.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG)
    }

    private static func isWellFormed(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return false
        }
        return !path.split(separator: "/").contains { $0 == "." || $0 == ".." }
    }

    private static func path(_ path: String, isUnder folder: String) -> Bool {
        path.hasPrefix(folder == "/" ? "/" : folder + "/")
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// `path` with every symbolic link in it resolved, as far as it exists (the missing rest
    /// appended as spelled).
    static func resolved(_ path: String) -> String {
        var head = path
        var rest: [String] = []
        while true {
            if let real = realpath(head, nil) {
                defer { free(real) }
                return rest.reversed().reduce(String(cString: real)) { join($0, $1) }
            }
            let parent = (head as NSString).deletingLastPathComponent
            guard parent != head, !parent.isEmpty else { return path }
            rest.append((head as NSString).lastPathComponent)
            head = parent
        }
    }
}
