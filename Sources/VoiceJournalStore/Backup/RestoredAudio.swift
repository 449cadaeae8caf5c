import Foundation
import VoiceJournalSystem

/// A backup's audio files moved into the data home: each under `audio/` at the path it had
/// (relative to the home) or, when another file is there, beside it as `NAME-restored-N.EXT`.
/// A file already there with the same bytes is used as it is. Folders are made private
/// (0700) and never followed when they are symbolic links (only `audio/` itself may be one,
/// as it may in any journal: a link to a bigger disk).
struct RestoredAudio {
    /// Each restored name's absolute path in the home.
    private(set) var paths: [String: String] = [:]
    /// The files and folders made here, removed again if the restore fails.
    private var made: [String] = []
    private var folders: [String] = []
    private(set) var bytes: UInt64 = 0

    /// Places the files `names` of `staged` into `home`.
    init(_ names: some Sequence<String>, from staged: StagedBackup, home: DataHome) throws {
        let manifest = Dictionary(staged.manifest.audio.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        do {
            for name in Set(names).sorted() {
                guard let source = staged.audio[name], let file = manifest[name] else { continue }
                let path = try place(source, file: file, home: home)
                paths[name] = path
                bytes += file.size
            }
        } catch {
            removeMade()
            throw error
        }
    }

    /// Removes the files this restore made (it failed after placing them).
    func removeMade() {
        for path in made.reversed() { unlink(path) }
        for folder in folders.reversed() { rmdir(folder) }
    }

    private mutating func place(_ source: URL, file: BackupManifest.AudioFile, home: DataHome) throws -> String {
        let parts = file.name.split(separator: "/").map(String.init)
        var folder = home.url.standardizedFileURL.path + "/audio"
        if try Self.makeFolder(folder, mayBeLink: true) { folders.append(folder) }
        for part in parts.dropFirst().dropLast() {
            folder += "/" + part
            if try Self.makeFolder(folder, mayBeLink: false) { folders.append(folder) }
        }
        let name = parts.last ?? "audio"
        for attempt in 0..<1000 {
            let candidate = folder + "/" + (attempt == 0 ? name : Self.restoredName(name, attempt))
            var status = stat()
            if lstat(candidate, &status) == 0 {
                if status.st_mode & S_IFMT == S_IFREG, UInt64(status.st_size) == file.size,
                   (try? ContentDigest.sha256(fileAt: URL(fileURLWithPath: candidate))) == file.sha256 {
                    return candidate
                }
                continue
            }
            if link(source.path, candidate) == 0 {
                made.append(candidate)
                return candidate
            }
            if errno == EEXIST { continue }
            guard errno == EXDEV || errno == EPERM || errno == EMLINK else { throw Self.failure(candidate) }
            // Another disk (audio/ links elsewhere): copied instead.
            guard try Self.copy(source, to: candidate) else { continue }
            made.append(candidate)
            return candidate
        }
        throw StoreError(.conflict, "cannot find a free name for \(file.name) in \(folder)")
    }

    /// `take.wav` → `take-restored-2.wav`.
    private static func restoredName(_ name: String, _ number: Int) -> String {
        let suffix = (name as NSString).pathExtension
        let stem = suffix.isEmpty ? name : (name as NSString).deletingPathExtension
        return suffix.isEmpty ? "\(stem)-restored-\(number)" : "\(stem)-restored-\(number).\(suffix)"
    }

    /// Makes the folder (0700) unless it is there (true when made); refuses anything else standing there.
    private static func makeFolder(_ path: String, mayBeLink: Bool) throws -> Bool {
        if mkdir(path, 0o700) == 0 { return true }
        guard errno == EEXIST else { throw failure(path) }
        var status = stat()
        let found = mayBeLink ? stat(path, &status) : lstat(path, &status)
        guard found == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(.conflict, "cannot restore audio into \(path): something other than a folder is there")
        }
        return false
    }

    /// Copies `source` to a new file at `path`; false when a file appeared there meanwhile.
    private static func copy(_ source: URL, to path: String) throws -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw failure(path)
        }
        let output = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            let input = try FileHandle(forReadingFrom: source)
            defer { try? input.close() }
            while let block = try input.read(upToCount: 1 << 20), !block.isEmpty { try output.write(contentsOf: block) }
            try output.close()
            return true
        } catch {
            unlink(path)
            throw StoreError(.storageFailure, "cannot restore audio into \(path): \(SystemError.reason(of: error))")
        }
    }

    private static func failure(_ path: String) -> StoreError {
        StoreError(errno == ENOSPC ? .storageFull : .storageFailure, "cannot restore audio into \(path): \(SystemError.text())")
    }
}
