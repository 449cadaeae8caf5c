import Foundation
import Logging
import VoiceJournalStore

/// The journal as a command opens it: the store, and the lines the user should read about
/// it on stderr (recordings recovered from a killed recorder, a home with no journal yet).
package struct OpenedJournal: Sendable {
    package let store: JournalStore
    /// One sentence each, without the program name.
    package let notices: [String]

    /// Opens the store in `home` for `purpose` and, when it can be written, completes
    /// recordings a killed recorder left unfinished — whichever command runs next, so a kill
    /// loses nothing. Recordings still being captured by another process hold a file lock
    /// and are left alone. Recovery that fails is retried next time; it never stops the command.
    package static func open(_ home: DataHome, for purpose: JournalStore.Purpose,
                            logger: Logger) throws -> OpenedJournal {
        let store = try JournalStore(home: home, for: purpose, logger: logger)
        switch store.access {
        case .empty:
            return OpenedJournal(store: store, notices: ["there is no journal in \(home.url.path) yet"])
        case .readOnly:
            // Nothing can be repaired on a disk that cannot be written; the next writable run will.
            return OpenedJournal(store: store, notices: [])
        case .readWrite:
            do {
                let outcomes = try RecordingRecovery.completeInterrupted(store: store, logger: logger)
                return OpenedJournal(store: store, notices: outcomes.compactMap(\.notice))
            } catch {
                let reason = StoreError.classify(error, home: home)?.description ?? String(describing: error)
                return OpenedJournal(store: store, notices: ["could not complete an interrupted recording yet: \(reason)"])
            }
        }
    }
}

extension RecordingRecovery.Outcome {
    /// What the user is told about this recovered row, if anything.
    package var notice: String? {
        switch self {
        case let .completed(id, seconds):
            "recovered recording \(id) (\(String(format: "%.1f", seconds)) s) left unfinished by an interrupted recorder; its transcription is queued"
        case let .failed(id, reason):
            "recording \(id) was left unfinished and cannot be repaired: \(reason)"
        case .discarded:
            nil
        }
    }
}
