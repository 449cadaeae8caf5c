import Foundation
import Logging
import VoiceJournalStore

/// A journal store in a fresh temporary home, for tests that work on the store directly;
/// the folder (and the database in it) goes when the value does.
public struct TemporaryJournal: Sendable {
    public let folder: TemporaryFolder
    public let store: JournalStore
    /// The logger tests hand to the store and the pipeline (libraries take one; none is made for them).
    public static let logger = Logger(label: "voicejournal.test")

    public init() throws {
        folder = try TemporaryFolder()
        store = try JournalStore(home: DataHome(url: folder.path("home")), logger: Self.logger)
    }
}
