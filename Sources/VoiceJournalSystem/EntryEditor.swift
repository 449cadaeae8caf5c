import Foundation

/// The user's editor as `entry edit` runs it: `$VISUAL`, else `$EDITOR`, else `vi`, given the
/// entry's text in a private file under the home (the journal's words never go to a shared
/// temporary folder) and read back once it ends.
package struct EntryEditor: Sendable, Equatable {
    /// A command line ("code --wait", "vim -u NONE"), run through the shell with the file's path.
    package var command: String

    /// The editor the environment names, else `vi`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        command = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
    }

    /// `text` after the editor has had it, its file in `folder` (made private, 0700, if it is
    /// not there). The editor runs in the foreground with the process's own terminal; its end
    /// is awaited without holding a thread. `id` is the entry's; nil for a new one (the editor
    /// then starts on an empty file, and what fails says that nothing was added).
    package func edit(_ text: String, entry id: Int64?, folder: URL) async throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("entry-\(id.map(String.init) ?? "new")-\(UUID().uuidString).txt")
        guard FileManager.default.createFile(atPath: file.path, contents: Data((text.isEmpty ? "" : text + "\n").utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw EditorError(.cannotWrite, "cannot write \(file.path) for the editor")
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let status = try await run(file)
        guard status == 0 else {
            throw EditorError(.failed, "the editor (\(command)) ended with status \(status); \(Self.nothingDone(id))")
        }
        return try Self.editedText(of: file, editor: command, entry: id)
    }

    /// What an edit that failed left as it was.
    static func nothingDone(_ id: Int64?) -> String { id.map { "entry #\($0) is unchanged" } ?? "no entry was added" }

    /// Runs the command line through the shell (`$EDITOR` is a command line, not a path).
    private func run(_ file: URL) async throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(command) \"$1\"", "sh", file.path]
        return try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// What the editor left in `file`, or why there is nothing to take: an editor may remove
    /// or rename the file, or save it in another encoding.
    static func editedText(of file: URL, editor: String, entry id: Int64?) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let what = FileManager.default.fileExists(atPath: file.path) ? "left a file that cannot be read" : "removed the file it was given"
            throw EditorError(.lostFile, "the editor (\(editor)) \(what); \(nothingDone(id))")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw EditorError(.notUTF8, "the editor saved text that is not UTF-8; save it as UTF-8 and try again (\(nothingDone(id)))")
        }
        return text
    }
}

/// Why an edit in the user's editor gave no correction; the entry is unchanged.
///
/// Shaped like `StoreError`: a struct over a private code, so new kinds never break callers.
package struct EditorError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case cannotWrite, failed, lostFile, notUTF8, empty
        }
        private let code: Code

        /// The file for the editor could not be made under the home.
        package static let cannotWrite = Kind(code: .cannotWrite)
        /// The editor could not be started or ended with a status other than 0.
        package static let failed = Kind(code: .failed)
        /// The editor removed its file or left one that cannot be read.
        package static let lostFile = Kind(code: .lostFile)
        /// The editor saved text that is not UTF-8.
        package static let notUTF8 = Kind(code: .notUTF8)
        /// The editor left no text for a new entry (the user wrote nothing, or quit).
        package static let empty = Kind(code: .empty)

        package var description: String { code.rawValue }
    }

    package let kind: Kind
    /// The whole sentence for the user.
    package let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
