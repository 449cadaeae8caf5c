import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The reflection queue in SQLite: one job per entry, due once the entry has words, leased,
/// finished only by its holder, retried with backoff, and freed when its runner is gone.
@Suite struct ReflectionJobTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws { journal = try TemporaryJournal() }

    /// A voice entry whose recording has no transcript yet; returns the entry and recording ids.
    func voiceEntry() throws -> (entry: Int64, recording: Int64) {
        let started = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                               format: "wav", sampleRate: 16000, channels: 1) { id in ("/tmp/take-\(id).wav", ()) }
        return (try #require(started.recording.entryId), try #require(started.recording.id))
    }

    @Test func aVoiceEntryWaitsForItsTranscriptAndATypedOneIsDueAtOnce() throws {
        let voice = try voiceEntry()
        let typed = try store.addEntry(journal: nil, title: nil, content: "A typed day.", mood: nil, theme: nil)
        let first = try store.queueReflection(entryId: voice.entry, now: now)
        #expect(try store.queueReflection(entryId: voice.entry, now: now).id == first.id, "queued once per entry")
        try store.queueReflection(entryId: typed.id, now: now)
        let counts = try store.reflectionJobCounts(now: now)
        #expect(counts.queued == 1 && counts.waiting == 1)

        let claimed = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now))
        #expect(claimed.entryId == typed.id && claimed.attempts == 1 && claimed.state == .running)
        #expect(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now) == nil, "the voice entry has no words yet")
        #expect(try store.pendingReflectionJobs(entries: [voice.entry]) == (unfinished: 1, claimable: 0))

        // Its transcript lands: now it is due.
        try store.pool.write { db in
            var transcript = Transcript(recordingId: voice.recording, text: "Spoken words.", model: "whisper-1")
            try transcript.insert(db)
        }
        #expect(try store.claimReflectionJob(owner: "me:1:a", lease: 60, entries: [voice.entry], now: now)?.entryId == voice.entry)
    }

    @Test func onlyTheHolderFinishesAndAFailureWaitsThenFailsAfterItsAttempts() throws {
        let entry = try store.addEntry(journal: nil, title: nil, content: "Words.", mood: nil, theme: nil)
        try store.queueReflection(entryId: entry.id, now: now)
        let job = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now))
        #expect(try !store.finishReflectionJob(id: job.id!, owner: "other:2:b", reflectionId: nil, now: now))
        let retried = try #require(try store.failReflectionJob(id: job.id!, owner: "me:1:a", error: "HTTP 500", retryAt: now + 5, now: now))
        #expect(retried.state == .queued && retried.lastError == "HTTP 500")
        #expect(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now + 4) == nil, "not before its backoff")
        var attempt = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now + 5))
        while attempt.attempts < attempt.maxAttempts {
            try store.failReflectionJob(id: attempt.id!, owner: "me:1:a", error: "HTTP 500", retryAt: now + 5, now: now)
            attempt = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now + 5))
        }
        let failed = try store.failReflectionJob(id: attempt.id!, owner: "me:1:a", error: "HTTP 500", retryAt: now + 6, now: now)
        #expect(failed?.state == .failed, "six attempts in all")
        #expect(try store.retryReflectionJobs(now: now) == [entry.id])
        let again = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 60, now: now))
        #expect(again.attempts == 1)
        #expect(try store.finishReflectionJob(id: again.id!, owner: "me:1:a", reflectionId: nil, now: now))
        #expect(try store.reflectionJobCounts(now: now).done == 1)
    }

    @Test func aLeaseOfARunnerThatIsGoneIsFreedAtOnceAndAReleaseCostsNoAttempt() throws {
        let entry = try store.addEntry(journal: nil, title: nil, content: "Words.", mood: nil, theme: nil)
        try store.queueReflection(entryId: entry.id, now: now)
        let held = try #require(try store.claimReflectionJob(owner: "me:1:a", lease: 600, now: now))
        #expect(try store.claimReflectionJob(owner: "me:2:b", lease: 60, now: now + 1) == nil, "leased")
        #expect(try store.reflectionLeaseOwners() == ["me:1:a"])
        #expect(try store.expireReflectionLeases(of: ["me:1:a"], now: now + 1) == 1)
        let taken = try #require(try store.claimReflectionJob(owner: "me:2:b", lease: 60, now: now + 1))
        #expect(taken.id == held.id && taken.attempts == 2)
        try store.releaseReflectionJob(id: taken.id!, owner: "me:2:b", now: now + 2)
        #expect(try store.claimReflectionJob(owner: "me:2:b", lease: 60, now: now + 2)?.attempts == 2)
        // Deleting the entry takes its job with it.
        try store.pool.write { db in _ = try Entry.deleteOne(db, key: entry.id) }
        #expect(try store.reflectionJobs().isEmpty)
    }
}
