import Foundation
import VoiceJournalSystem

/// Writes a tar archive front to back: member after member, each file copied in blocks
/// (memory does not grow with it) and hashed in the same pass, so the SHA-256 the manifest
/// records is that of the bytes in the archive.
struct TarWriter {
    private let handle: FileHandle
    /// Bytes written so far.
    private(set) var offset: UInt64 = 0

    init(handle: FileHandle) { self.handle = handle }

    /// What was written for one member.
    struct Written {
        let size: UInt64
        let sha256: String
    }

    /// Adds `data` as the file `name`.
    mutating func add(_ data: Data, name: String, modified: Date) throws -> Written {
        try write(Data(TarHeader(name: name, size: UInt64(data.count), modified: modified).encoded()))
        try write(data)
        try pad(after: UInt64(data.count))
        return Written(size: UInt64(data.count), sha256: try ContentDigest.sha256(data))
    }

    /// Adds the file at `url` as `name`: as long as it was when opened. A file that grows
    /// meanwhile (a take being recorded) is taken as it was; one that shrinks is an error,
    /// since the header has promised bytes that are gone.
    /// `shouldStop` is asked between blocks: a backup told to stop (Ctrl-C) throws
    /// `CancellationError` rather than finish a large file first.
    mutating func add(fileAt url: URL, name: String, shouldStop: () -> Bool = { false }) throws -> Written {
        let source = try FileHandle(forReadingFrom: url)
        defer { try? source.close() }
        var status = stat()
        guard fstat(source.fileDescriptor, &status) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw TarError("\(url.path) is not a regular file") }
        let size = UInt64(status.st_size)
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec))
        try write(Data(TarHeader(name: name, size: size, modified: modified).encoded()))
        let hasher = try SHA256Context()
        var left = size
        while left > 0 {
            if shouldStop() { throw CancellationError() }
            guard let block = try source.read(upToCount: Int(min(left, 1 << 20))), !block.isEmpty else {
                throw TarError("\(url.path) became shorter while it was being copied")
            }
            try hasher.update(block)
            try write(block)
            left -= UInt64(block.count)
        }
        try pad(after: size)
        return Written(size: size, sha256: try hasher.finish())
    }

    /// Ends the archive: two blocks of zeros.
    mutating func finish() throws {
        try write(Data(count: 2 * TarHeader.blockSize))
    }

    private mutating func pad(after size: UInt64) throws {
        let padding = TarHeader.padding(after: size)
        if padding > 0 { try write(Data(count: padding)) }
    }

    private mutating func write(_ data: Data) throws {
        do {
            try handle.write(contentsOf: data)
        } catch {
            let reason = SystemError.reason(of: error)
            throw StoreError(reason == SystemError.text(ENOSPC) ? .storageFull : .storageFailure, "the backup could not be written: \(reason)")
        }
        offset += UInt64(data.count)
    }
}
