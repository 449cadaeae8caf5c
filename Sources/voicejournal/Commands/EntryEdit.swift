import ArgumentParser
import Foundation
import Store
import Terminal

extension EntryCommand {
    /// `voicejournal entry edit ID [--text T]`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit",
            abstract: "Correct an entry's text or transcript (a misheard name, a typo).",
            discussion: """
                Opens $VISUAL (else $EDITOR, else vi) on the typed text, or on the transcript one \
                segment a line, so each line keeps its time in the recording; --text replaces it \
                without an editor. The correction is searchable at once; the original is kept \
                (entry show ID --original). Add names the model keeps mishearing with: \
                voicejournal vocabulary add WORD.
                """)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The entry's id (see 'entry list').") var id: Int64
        @Option(help: "The corrected text (no editor is opened).") var text: String?

        func run() async throws {
            let store = try global.openStore()
            let corrected: String
            let part: EntryCorrection.Part
            if let text {
                corrected = text
                part = try store.correctableText(ofEntry: id).part
            } else {
                let current = try store.correctableText(ofEntry: id)
                part = current.part
                corrected = try await Self.edit(current.text, home: store.home, id: id)
            }
            let correction = try store.correctEntry(id: id, text: corrected, now: Now.date())
            let what = part == .text ? "text" : "transcript"
            print(correction.changed ? "Corrected the \(what) of entry #\(id); the original: voicejournal entry show \(id) --original"
                                     : "No change to entry #\(id).")
        }

        /// The text after the user's editor has had it: written to a private file under the
        /// home (the journal's words never go to a shared temporary folder), edited, read back.
        static func edit(_ text: String, home: DataHome, id: Int64) async throws -> String {
            let environment = ProcessInfo.processInfo.environment
            let editor = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
            let folder = home.url.appendingPathComponent("tmp")
            try home.createPrivateFolder(folder)
            let file = folder.appendingPathComponent("entry-\(id)-\(UUID().uuidString).txt")
            guard FileManager.default.createFile(atPath: file.path, contents: Data((text + "\n").utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw CLIError.failure("cannot write \(file.path) for the editor")
            }
            defer { try? FileManager.default.removeItem(at: file) }
            // Through the shell, as $EDITOR is a command line ("code --wait", "vim -u NONE").
            let status = try await onThread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "\(editor) \"$1\"", "sh", file.path]
                try process.run()
                process.waitUntilExit()
                return process.terminationStatus
            }
            guard status == 0 else {
                throw CLIError.failure("the editor (\(TerminalText.escaped(editor))) ended with status \(status); entry #\(id) is unchanged")
            }
            return try editedText(of: file, editor: editor, id: id)
        }

        /// What the editor left in `file`, or one line saying why there is nothing to take:
        /// an editor may remove or rename the file, or save it in another encoding.
        static func editedText(of file: URL, editor: String, id: Int64) throws -> String {
            let data: Data
            do {
                data = try Data(contentsOf: file)
            } catch {
                let what = FileManager.default.fileExists(atPath: file.path) ? "left a file that cannot be read" : "removed the file it was given"
                throw CLIError.failure("the editor (\(TerminalText.escaped(editor))) \(what); entry #\(id) is unchanged")
            }
            guard let text = String(validating: data, as: UTF8.self) else {
                throw CLIError.failure("the editor saved text that is not UTF-8; save it as UTF-8 and try again (entry #\(id) is unchanged)")
            }
            return text
        }
    }
}
