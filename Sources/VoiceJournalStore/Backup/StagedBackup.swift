import Foundation
import VoiceJournalSystem

/// A backup file unpacked into a private folder under the home's `tmp/`, checked against
/// its manifest before anything of the journal is touched: every file the manifest lists is
/// there with its size and SHA-256, and nothing else is. The archive is untrusted input: its
/// members are staged under numbers, never under the names it gives; a name only says which
/// manifest line a member is, and where (under the home's `audio/`) it may go once checked.
struct StagedBackup {
    let folder: URL
    let manifest: BackupManifest
    /// The snapshot of the database.
    let database: URL
    /// Each audio file's staged copy, by its name in the backup.
    let audio: [String: URL]

    /// The largest manifest read: a million audio files' lines fit in far less.
    static let manifestLimit: UInt64 = 256 << 20

    /// Unpacks and checks the backup at `url`. The disk must have room for it first. Without
    /// `keepingAudio` (to read the database only) the audio is read and checked, not written.
    init(_ url: URL, home: DataHome, keepingAudio: Bool = true) throws {
        let handle: FileHandle
        do { handle = try FileHandle(forReadingFrom: url) } catch {
            throw StoreError.invalidInput("cannot read \(url.path): \(SystemError.reason(of: error))")
        }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw StoreError.invalidInput("\(url.path) is not a file")
        }
        let size = UInt64(status.st_size)
        let tmp = home.url.appendingPathComponent("tmp", isDirectory: true)
        try home.createPrivateFolder(tmp)
        if keepingAudio { try Self.checkRoom(for: size, in: tmp) }
        folder = tmp.appendingPathComponent("restore-\(getpid())-\(UUID().uuidString.prefix(8))", isDirectory: true)
        guard mkdir(folder.path, 0o700) == 0 else {
            throw StoreError(.storageFailure, "cannot create \(folder.path): \(SystemError.text())")
        }
        do {
            (manifest, database, audio) = try Self.unpack(handle, size: size, into: folder, named: url.path, keepingAudio: keepingAudio)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Removes the staged files (those not moved into the journal).
    func discard() {
        try? FileManager.default.removeItem(at: folder)
    }

    private typealias Unpacked = (manifest: BackupManifest, database: URL, audio: [String: URL])

    private static func unpack(_ handle: FileHandle, size: UInt64, into folder: URL, named path: String,
                               keepingAudio: Bool) throws -> Unpacked {
        var reader = TarReader(handle: handle, limit: size)
        var staged: [String: (url: URL, size: UInt64, sha256: String)] = [:]
        var manifestData: Data?
        do {
            while let header = try reader.next() {
                switch header.kind {
                case .folder: continue
                case .other: throw TarError("it holds \(header.name), which is not a plain file")
                case .file: break
                }
                guard staged[header.name] == nil, !(header.name == BackupManifest.manifestName && manifestData != nil) else {
                    throw TarError("it holds \(header.name) twice")
                }
                if header.name == BackupManifest.manifestName {
                    guard header.size <= manifestLimit else { throw TarError("its manifest is too large to be one") }
                    var data = Data()
                    try reader.content { data.append($0) }
                    manifestData = data
                    continue
                }
                let url = folder.appendingPathComponent(String(staged.count))
                let kept = keepingAudio || header.name == BackupManifest.databaseName
                let written = try copy(&reader, to: kept ? url : nil)
                staged[header.name] = (url, written.size, written.sha256)
            }
        } catch let error as TarError {
            throw StoreError.invalidInput("\(path) is not a voicejournal backup, or it is damaged: \(error.description)")
        }
        guard let manifestData else {
            throw StoreError.invalidInput("\(path) is not a voicejournal backup (it has no \(BackupManifest.manifestName); made by: voicejournal backup FILE)")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(BackupManifest.self, from: manifestData),
              manifest.format == BackupManifest.formatName else {
            throw StoreError.invalidInput("\(path) is not a voicejournal backup (its \(BackupManifest.manifestName) is not a backup's manifest)")
        }
        guard manifest.version <= BackupManifest.currentVersion else {
            throw StoreError.invalidInput("\(path) was made by a newer voicejournal (backup version \(manifest.version)); upgrade voicejournal to restore it")
        }
        func check(_ name: String, size: UInt64, sha256: String) throws -> URL {
            guard let file = staged[name] else { throw StoreError.invalidInput("\(path) is damaged: \(name), which its manifest lists, is missing") }
            guard file.size == size, file.sha256 == sha256 else {
                throw StoreError.invalidInput("\(path) is damaged: \(name) is not the file its manifest describes (size or SHA-256 differ)")
            }
            return file.url
        }
        guard manifest.database.name == BackupManifest.databaseName else {
            throw StoreError.invalidInput("\(path) is not a voicejournal backup (its manifest names no \(BackupManifest.databaseName))")
        }
        let database = try check(manifest.database.name, size: manifest.database.size, sha256: manifest.database.sha256)
        var audio: [String: URL] = [:]
        for file in manifest.audio {
            guard BackupName.isAcceptable(file.name) else {
                throw StoreError.invalidInput("\(path) cannot be restored: it names an audio file \(ArchiveRowCheck.shown(.text(file.name))), "
                    + "which is not a plain name under audio/")
            }
            guard audio[file.name] == nil else { throw StoreError.invalidInput("\(path) is damaged: its manifest lists \(file.name) twice") }
            audio[file.name] = try check(file.name, size: file.size, sha256: file.sha256)
        }
        if let extra = staged.keys.sorted().first(where: { $0 != manifest.database.name && audio[$0] == nil }) {
            throw StoreError.invalidInput("\(path) cannot be restored: it holds \(ArchiveRowCheck.shown(.text(extra))), which its manifest does not list")
        }
        return (manifest, database, audio)
    }

    /// Copies the current member into a new private file at `url` (nil: nowhere), hashing it on the way.
    private static func copy(_ reader: inout TarReader, to url: URL?) throws -> (size: UInt64, sha256: String) {
        var output: FileHandle?
        if let url {
            let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw StoreError(.storageFailure, "cannot create \(url.path): \(SystemError.text())") }
            output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        }
        let hasher = try SHA256Context()
        var size: UInt64 = 0
        try reader.content { block in
            try hasher.update(block)
            do { try output?.write(contentsOf: block) } catch {
                throw StoreError(.storageFailure, "cannot unpack the backup into \(url?.deletingLastPathComponent().path ?? ""): \(SystemError.reason(of: error))")
            }
            size += UInt64(block.count)
        }
        try output?.close()
        return (size, try hasher.finish())
    }

    /// Refuses before any work when the disk holding `folder` has not room for `size` bytes
    /// (and a little more for the journal's database).
    private static func checkRoom(for size: UInt64, in folder: URL) throws {
        var disk = statvfs()
        guard statvfs(folder.path, &disk) == 0 else { return }
        let free = UInt64(disk.f_bavail) * UInt64(disk.f_frsize)
        let needed = size + size / 10 + (16 << 20)
        guard free >= needed else {
            throw StoreError(.storageFull, "the disk holding \(folder.deletingLastPathComponent().path) has \(free >> 20) MB free; "
                + "restoring this backup needs about \(needed >> 20) MB: free some space or restore into another folder with --home")
        }
    }
}
