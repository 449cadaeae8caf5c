import Foundation

/// A file written so that it is never world-readable nor half-written: through a temporary
/// file beside it, private (0600) from the start, renamed into place only when kept.
package enum PrivateFile {
    /// Writes through `body`; its `keep` says whether the file goes to `target` or is removed.
    package static func write<Result>(to target: URL, _ body: (FileHandle) throws -> (keep: Bool, result: Result)) throws -> Result {
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            let (keep, result) = try body(handle)
            try handle.close()
            guard keep else {
                unlink(temporary.path)
                return result
            }
            guard rename(temporary.path, target.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            return result
        } catch {
            unlink(temporary.path)
            throw error
        }
    }
}
