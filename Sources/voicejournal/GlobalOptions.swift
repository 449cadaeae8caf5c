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

    /// Opens the journal store, turning a failure into one readable line (exit 3), and
    /// completes recordings a killed recorder left unfinished — whichever command runs next,
    /// so a kill loses nothing. (Recordings still being captured by another process hold a
    /// file lock and are left alone.)
    func openStore() throws -> JournalStore {
        let store: JournalStore
        do {
            store = try JournalStore(home: dataHome)
        } catch {
            throw CLIError.configuration("cannot open the journal in \(dataHome.url.path): \(error)")
        }
        do {
            try RecordingReport.recoverInterrupted(store)
        } catch {
            // Recovery is retried at the next start; it must not stop the command asked for.
            RecordingReport.stderr("voicejournal: could not complete an interrupted recording yet: \(error)")
        }
        return store
    }
}
