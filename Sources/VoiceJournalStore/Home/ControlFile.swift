import Foundation
import VoiceJournalSystem

/// The data home's small control files (`serve.lock`, `serve.json`) opened as data: never
/// through a symbolic link, never blocking on a FIFO or a device someone put in their place,
/// and only when they are regular files. Opening a FIFO for reading waits for a writer that
/// may never come; a link could point anywhere.
package enum ControlFile {
    /// A descriptor on the regular file at `path` (`flags`: `O_RDONLY`, `O_RDWR`, `O_CREAT`…),
    /// or why there is none: `.missing` when nothing is there, else the reason in words.
    /// `followingLinks`: a file the user names (the config file, often a dotfile manager's
    /// link) may be reached through a link; the home's own files may not.
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0o600, followingLinks: Bool = false) -> Result<Int32, Problem> {
        let descriptor = Glibc.open(path, flags | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW), mode)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return .failure(.missing) }
            if code == ELOOP { return .failure(.unusable(followingLinks ? "is a loop of symbolic links" : "is a symbolic link")) }
            if code == EACCES { return .failure(.unusable("cannot be read (check its permissions)")) }
            if code == EISDIR { return .failure(.unusable("is a folder, not a file")) }
            return .failure(.unusable("cannot be opened (\(SystemError.text(code)))"))
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            let kind = kindName(status.st_mode)
            close(descriptor)
            return .failure(.unusable(kind == "a folder" ? "is a folder, not a file" : "is \(kind), not a regular file"))
        }
        // Reads and writes of a regular file never block; the flag only guarded the open.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return .success(descriptor)
    }

    /// The bytes of the regular file at `path`, at most `limit` of them (a larger file is a
    /// problem, not read).
    package static func read(_ path: String, limit: Int, followingLinks: Bool = false) -> Result<Data, Problem> {
        let descriptor: Int32
        switch open(path, O_RDONLY, followingLinks: followingLinks) {
        case .success(let opened): descriptor = opened
        case .failure(let problem): return .failure(problem)
        }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in retryingOnInterrupt { Glibc.read(descriptor, bytes.baseAddress, bytes.count) } }
            guard count >= 0 else { return .failure(.unusable("cannot be read (\(SystemError.text()))")) }
            if count == 0 { return .success(data) }
            data.append(contentsOf: buffer[0..<count])
            if data.count > limit { return .failure(.unusable("is larger than \(limit / 1024) KB")) }
        }
    }

    /// Why a control file was not used.
    package enum Problem: Error, Equatable {
        /// Nothing is there.
        case missing
        /// Something is there that is not a usable regular file: what it is, in words that
        /// follow the file's name ("is a FIFO, not a regular file").
        case unusable(String)
    }

    private static func kindName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "a FIFO"
        case S_IFDIR: return "a folder"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        default: return "something else"
        }
    }
}
