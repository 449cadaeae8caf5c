import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The record a running serve leaves in its home counts only while its lock is held.
@Suite struct RunningServeTests {
    let folder: TemporaryFolder
    let home: DataHome
    let serve = RunningServe(pid: 4242, address: "http://127.0.0.1:9000", links: "https://journal.example.org")

    init() throws {
        folder = try TemporaryFolder("vj-running-serve")
        home = DataHome(url: folder.path("home"))
        try home.create()
    }

    private func mode(_ url: URL) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test func theRecordCountsWhileTheLockIsHeldAndGoesWithIt() async throws {
        #expect(RunningServe.find(in: home) == nil)
        guard case .held(let hold) = await RunningServe.claim(home) else { Issue.record("not claimed"); return }
        // Held but not listening yet: nothing to follow.
        #expect(RunningServe.find(in: home) == nil)
        try hold.record(serve)
        #expect(RunningServe.find(in: home) == serve)
        #expect(try mode(RunningServe.recordURL(in: home)) == 0o600 && mode(RunningServe.lockURL(in: home)) == 0o600)
        // Another claim on the same home (another open file, as another process would have) is refused, naming the first.
        guard case .taken(let other) = await RunningServe.claim(home) else { Issue.record("claimed twice"); return }
        #expect(other == serve)
        hold.release()
        #expect(!FileManager.default.fileExists(atPath: RunningServe.recordURL(in: home).path))
        #expect(RunningServe.find(in: home) == nil)
    }

    @Test func aRecordNoLockHoldsIsIgnoredAndRemoved() async throws {
        guard case .held(let hold) = await RunningServe.claim(home) else { Issue.record("not claimed"); return }
        try hold.record(serve)
        // What SIGKILL leaves: the record without its holder (the lock's descriptor closed, the file kept).
        let record = try Data(contentsOf: RunningServe.recordURL(in: home))
        hold.release()
        try record.write(to: RunningServe.recordURL(in: home))
        #expect(RunningServe.find(in: home) == nil)
        #expect(!FileManager.default.fileExists(atPath: RunningServe.recordURL(in: home).path))
    }

    @Test func aNewServeClearsTheRecordAKilledOneLeft() async throws {
        try Data(#"{"pid":1,"address":"http://127.0.0.1:1","links":"http://127.0.0.1:1"}"#.utf8).write(to: RunningServe.recordURL(in: home))
        guard case .held(let hold) = await RunningServe.claim(home) else { Issue.record("not claimed"); return }
        defer { hold.release() }
        #expect(!FileManager.default.fileExists(atPath: RunningServe.recordURL(in: home).path))
        #expect(RunningServe.find(in: home) == nil)
    }
}
