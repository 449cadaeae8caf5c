import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct SQLiteVersionTests {
    @Test func sqliteIsTheSystemLibraryWithFTS5() throws {
        let folder = try TemporaryFolder()
        let store = try JournalStore(home: DataHome(url: folder.path("home")), logger: TemporaryJournal.logger)
        let declared = try runTool("pkg-config", ["--modversion", "sqlite3"]).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try store.sqliteVersion() == declared)
        #expect(try store.sqliteHasFTS5())
    }
}
