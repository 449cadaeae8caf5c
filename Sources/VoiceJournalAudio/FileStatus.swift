import Foundation
#if canImport(Glibc)
import Glibc
#endif
import VoiceJournalSystem

/// The same file however it is reached (through a link, a second hard link, a second path):
/// its device and inode numbers.
package struct FileIdentity: Hashable, Sendable {
    package let device: UInt64
    package let inode: UInt64
}

/// What a path names on disk, learned with stat(2) or lstat(2) without opening it: opening a
/// named pipe blocks until someone writes, and a device such as /dev/urandom never ends, so
/// what a path is must be known before anything reads it.
package struct FileStatus: Sendable, Equatable {
    /// The kinds of things a path can name.
    package enum Kind: Sendable, Equatable {
        case regular, folder, symbolicLink, pipe, characterDevice, blockDevice, socket, unknown

        /// The kind in a user's words, with its article: "a pipe", "a character device".
        package var words: String {
            switch self {
            case .regular: "a regular file"
            case .folder: "a folder"
            case .symbolicLink: "a symbolic link"
            case .pipe: "a pipe"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .unknown: "an unknown kind of file"
            }
        }
    }

    /// Why stat(2) failed: its errno, and the system's text for it.
    package struct Failure: Error, Sendable, Equatable {
        package let code: Int32
        /// strerror's text, e.g. "No such file or directory".
        package var reason: String { SystemError.text(code) }
    }

    package let kind: Kind
    package let sizeBytes: Int64
    package let identity: FileIdentity

    /// The status of `path`: of what a symbolic link points to when `followingLinks`
    /// (stat(2)), else of the link itself (lstat(2)).
    package static func of(_ path: String, followingLinks: Bool = true) throws(Failure) -> FileStatus {
        var buffer = stat()
        let status = followingLinks ? stat(path, &buffer) : lstat(path, &buffer)
        guard status == 0 else { throw Failure(code: errno) }
        let kind: Kind = switch buffer.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .folder
        case S_IFLNK: .symbolicLink
        case S_IFIFO: .pipe
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFSOCK: .socket
        default: .unknown
        }
        return FileStatus(kind: kind, sizeBytes: Int64(buffer.st_size),
                          identity: FileIdentity(device: UInt64(buffer.st_dev), inode: UInt64(buffer.st_ino)))
    }

    /// The names in `folder` (without `.` and `..`), unsorted. Nothing in it is opened.
    package static func names(inFolder folder: String) throws(Failure) -> [String] {
        guard let directory = opendir(folder) else { throw Failure(code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

/// The one check every way into an audio file passes (`transcribe`, `answer --file`,
/// `meter FILE`, every libsndfile open): only a regular file the user can read is audio.
/// Pipes, devices, sockets and folders are refused before anything opens them.
package enum RegularFile {
    /// The status of the regular, readable file `url` names (following links), or the
    /// problem that keeps it from being read as audio.
    @discardableResult
    package static func check(_ url: URL) throws(AudioFileProblem) -> FileStatus {
        let path = url.path
        let status: FileStatus
        do {
            status = try FileStatus.of(path)
        } catch {
            throw problem(path, failure: error)
        }
        switch status.kind {
        case .regular:
            guard access(path, R_OK) == 0 else {
                throw AudioFileProblem(.unreadable, path: path, reason: "cannot be read (\(FileStatus.Failure(code: errno).reason))")
            }
            return status
        case .folder:
            throw AudioFileProblem(.notRegularFile, path: path, reason: "a folder, not an audio file")
        default:
            throw AudioFileProblem(.notRegularFile, path: path, reason: "not a regular file (\(status.kind.words))")
        }
    }

    /// Words for a failed stat(2) of `path`: a missing file, a link to nothing, a link loop.
    package static func problem(_ path: String, failure: FileStatus.Failure) -> AudioFileProblem {
        switch failure.code {
        case ENOENT:
            // A link that exists while its target does not is dangling, not missing.
            if (try? FileStatus.of(path, followingLinks: false))?.kind == .symbolicLink {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                return AudioFileProblem(.brokenLink, path: path, reason: "a symbolic link to \(target), which does not exist")
            }
            return AudioFileProblem(.missing, path: path, reason: "no such file")
        case ELOOP:
            return AudioFileProblem(.brokenLink, path: path, reason: "a loop of symbolic links")
        default:
            return AudioFileProblem(.unreadable, path: path, reason: "cannot be read (\(failure.reason))")
        }
    }
}
