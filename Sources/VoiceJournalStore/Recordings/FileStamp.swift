import Foundation

/// What a file looked like when it was hashed: its size and modification time. Before an
/// upload the queue compares the file with its recording's stamp; when they differ the
/// file is hashed again, so a file changed after it was queued never gets the transcript
/// of the audio it held before (nor hands its own to that audio's later copies).
package struct FileStamp: Sendable, Equatable, CustomStringConvertible {
    package var sizeBytes: Int64
    /// The modification time in nanoseconds since 1970 (as precise as the file system keeps it).
    package var modifiedNanoseconds: Int64

    package init(sizeBytes: Int64, modifiedNanoseconds: Int64) {
        self.sizeBytes = sizeBytes
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    /// The file's stamp now (following symlinks), or nil when it cannot be read (gone, no permission).
    package static func current(path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(sizeBytes: Int64(info.st_size),
                         modifiedNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    package var description: String { "\(sizeBytes) bytes, modified \(modifiedNanoseconds) ns" }
}
