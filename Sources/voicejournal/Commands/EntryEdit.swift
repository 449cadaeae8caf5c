import ArgumentParser
import Foundation
import Store

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
            let correction = try await global.openStore().correctEntry(
                id: id, text: text, editor: EntryEditor(environment: ProcessInfo.processInfo.environment), now: Now.date())
            print(correction.changed ? "Corrected the \(correction.part.rawValue) of entry #\(id); the original: voicejournal entry show \(id) --original"
                                     : "No change to entry #\(id).")
        }
    }
}
