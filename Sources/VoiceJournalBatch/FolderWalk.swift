import VoiceJournalAudio
import Foundation

/// Walks a folder tree without opening anything in it but folders: each name is looked at
/// with lstat(2) (and stat(2) through a symbolic link) so a pipe, device or socket is reported
/// instead of read. Links are followed to files and to folders; a folder already searched
/// (a link to an ancestor, a second link to the same folder) is reported once and not walked
/// again, so a loop always ends. Folders reached through links are searched after the real
/// tree, so the real path is the one kept and the link the one reported. Hidden files and folders (names starting with a dot) are
/// passed over silently.
struct FolderWalk {
    /// A regular file found in a folder, with the path it was reached by.
    struct Found {
        var url: URL
        var status: FileStatus
        /// Reached through a symbolic link (to it or to a folder above it).
        var throughLink: Bool
    }

    /// Folders searched so far in this scan, by identity, with the path they were searched under.
    private var searched: [FileIdentity: URL] = [:]

    /// Walks `folder` (whose status is `status`); returns its regular files sorted by path and
    /// everything it passed over. A folder already searched returns nothing.
    mutating func files(in folder: URL, status: FileStatus) -> (found: [Found], skipped: [SkippedFile]) {
        guard searched[status.identity] == nil else { return ([], []) }
        searched[status.identity] = folder
        var found: [Found] = [], skipped: [SkippedFile] = []
        // Real folders first; folders reached through a link wait until the real tree is done.
        var pending = [(url: folder, throughLink: false)], linked: [(url: URL, identity: FileIdentity)] = []
        while true {
            let current: URL, throughLink: Bool
            if let next = pending.popLast() {
                (current, throughLink) = next
            } else if !linked.isEmpty {
                let next = linked.removeFirst()
                if let earlier = searched[next.identity] {
                    skipped.append(SkippedFile(url: next.url, reason: "a link to a folder already searched (\(earlier.path))",
                                               wasNamed: false))
                    continue
                }
                searched[next.identity] = next.url
                (current, throughLink) = (next.url, true)
            } else {
                break
            }
            let names: [String]
            do {
                names = try FileStatus.names(inFolder: current.path)
            } catch {
                skipped.append(SkippedFile(url: current, reason: "cannot be searched (\(error.reason))", wasNamed: false))
                continue
            }
            for name in names.sorted() where !name.hasPrefix(".") {
                let url = current.appendingPathComponent(name)
                func skip(_ reason: String) { skipped.append(SkippedFile(url: url, reason: reason, wasNamed: false)) }
                var entry: FileStatus
                var isLink = false
                do {
                    entry = try FileStatus.of(url.path, followingLinks: false)
                    if entry.kind == .symbolicLink {
                        isLink = true
                        entry = try FileStatus.of(url.path)
                    }
                } catch {
                    skip(RegularFile.problem(url.path, failure: error).reason)
                    continue
                }
                switch entry.kind {
                case .regular:
                    found.append(Found(url: url, status: entry, throughLink: throughLink || isLink))
                case .folder where isLink || throughLink:
                    linked.append((url, entry.identity))
                case .folder:
                    // Only a folder also named on the command line is met twice without a link.
                    guard searched[entry.identity] == nil else { continue }
                    searched[entry.identity] = url
                    pending.append((url, false))
                default:
                    skip("not a regular file (\(entry.kind.words))")
                }
            }
        }
        return (found.sorted { $0.url.path < $1.url.path }, skipped.sorted { $0.url.path < $1.url.path })
    }
}
