import ArgumentParser
import Foundation
import Store

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Data folder (default: $VOICEJOURNAL_HOME, else $XDG_DATA_HOME/voicejournal).", valueName: "dir"))
    var home: String?

    /// The data home this invocation uses.
    var dataHome: DataHome { DataHome.resolve(flag: home) }

    /// Opens the journal store, turning a failure into one readable line (exit 3).
    func openStore() throws -> JournalStore {
        do {
            return try JournalStore(home: dataHome)
        } catch {
            throw CLIError.configuration("cannot open the journal in \(dataHome.url.path): \(error)")
        }
    }
}
