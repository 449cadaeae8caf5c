import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

@Suite(.onTestThreads) struct JournalStoreTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    var folder: TemporaryFolder { journal.folder }

    init() throws { journal = try TemporaryJournal() }

    /// A voice entry with a recording, a transcript and a job, as `record` + the queue leave it.
    func addVoiceEntry(journal: String, transcript: String, sha: String) throws -> Int64 {
        try store.pool.write { db in
            let journal = try JournalStore.journalForNewEntry(db, named: journal)
            var entry = Entry(journalId: journal.id!, kind: .voice, content: "")
            try entry.insert(db)
            var recording = Recording(path: "/tmp/\(sha).wav", sha256: sha, sampleRate: 16000, channels: 1,
                                      format: "wav", state: .complete, entryId: entry.id)
            try recording.insert(db)
            _ = try JobQueue.enqueueTranscription(db, recordingId: recording.id!, priority: Job.livePriority)
            var text = Transcript(recordingId: recording.id!, text: transcript, model: "whisper-1")
            try text.insert(db)
            return entry.id!
        }
    }

    @Test func aTakeAboutAnotherDayIsDatedThatDay() throws {
        let day = Date(timeIntervalSince1970: 1_763_450_000)
        let started = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil, date: day),
                                               format: "wav", sampleRate: 16000, channels: 1) { id in ("/tmp/take-\(id).wav", ()) }
        let entry = try #require(started.recording.entryId)
        #expect(try store.entryView(id: entry).entry.createdAt == day)
        #expect(started.recording.createdAt != day, "the recording row keeps when it was made")
    }

    @Test func deletingAJournalRemovesEverythingThatCannotOutliveIt() throws {
        _ = try store.createJournal(name: "Trips")
        let id = try addVoiceEntry(journal: "Trips", transcript: "the ferry to the island", sha: "s1")
        _ = try store.addQuestion(journal: "Trips", text: "Best trip?")
        let counts = { try self.store.pool.read { db in
            try ["entry", "recording", "transcript", "job", "question"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)")! }
        } }
        #expect(try counts() == [1, 1, 1, 1, 1])
        _ = try store.pool.write { db in try Journal.filter(Column("name") == "Trips").deleteAll(db) }
        #expect(try counts() == [0, 0, 0, 0, 0])
        #expect(try store.search("ferry").isEmpty)
        #expect(throws: StoreError.self) { try store.entry(id: id) }
    }

    @Test func deletingAnEntryReturnsItsAudioAndDropsItsTranscript() throws {
        let id = try addVoiceEntry(journal: "Personal", transcript: "quiet morning", sha: "s2")
        #expect(try store.deleter.deleteEntry(id: id) == ["/tmp/s2.wav"])
        #expect(try store.search("morning").isEmpty)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM transcript") } == 0)
    }

    @Test func searchFindsTranscriptsAndTextRankedWithSnippetsAndFilters() throws {
        let voice = try addVoiceEntry(journal: "Personal", transcript: "We walked along the harbour and watched the boats", sha: "s3")
        let text = try store.addEntry(journal: nil, title: "Harbour", content: "harbour harbour harbour at dusk",
                                      mood: .happy, theme: nil).id
        let hits = try store.search("harbour")
        #expect(Set(hits.compactMap(\.entryId)) == [voice, text])
        #expect(hits.first?.entryId == text, "the entry naming the word most often ranks first")
        #expect(hits.allSatisfy { $0.snippet.contains("[harbour]") || $0.snippet.contains("[Harbour]") })
        #expect(try store.search("walking harbour").map(\.entryId) == [voice], "porter stemming, all words required")
        #expect(try store.search("harbour", filter: EntryFilter(mood: .happy)).map(\.entryId) == [text])
        #expect(try store.search("zeppelin").isEmpty)
        #expect(throws: StoreError.self) { try store.search("  ") }
    }

    @Test func searchFindsAnsweredAssignments() throws {
        _ = try store.createJournal(name: "Family")
        let question = try store.addQuestion(journal: "Family", text: "Where did you grow up?")
        let assignment = try store.assign(questionId: question.id!, to: "me")
        try store.pool.write { db in
            var recording = Recording(path: "/tmp/a.wav", sha256: "s4", sampleRate: 16000, channels: 1, format: "wav",
                                      state: .complete, assignmentId: assignment.id)
            try recording.insert(db)
            var transcript = Transcript(recordingId: recording.id!, text: "in a small town by the lake", model: "whisper-1")
            try transcript.insert(db)
        }
        let hit = try #require(try store.search("lake").first)
        #expect(hit.entryId == nil)
        #expect(hit.assignmentId == assignment.id)
        #expect(hit.journal == "Family")
        #expect(try store.assignments().first?.transcript == "in a small town by the lake")
    }

    @Test func namesAreUniqueAndUnknownNamesSayWhatToDo() throws {
        _ = try store.createJournal(name: "Work")
        #expect(throws: StoreError.conflict("a journal named \"work\" exists already")) { try store.createJournal(name: "work") }
        #expect {
            try store.journal(named: "Nope")
        } throws: { error in
            "\(error)".contains("journals: Work") && "\(error)".contains("voicejournal journal create \"Nope\"")
        }
        _ = try store.addPerson(name: "Ann", relationship: "friend", email: nil)
        #expect(throws: StoreError.self) { try store.addPerson(name: "ANN", relationship: nil, email: nil) }
        #expect(throws: StoreError.self) { try store.assign(questionId: 99, to: "Ann") }
    }

    @Test func questionsKeepTheirOrderAndAssignmentsGetDistinctTokens() throws {
        _ = try store.createJournal(name: "Family")
        let first = try store.addQuestion(journal: "Family", text: "One?")
        let second = try store.addQuestion(journal: "Family", text: "Two?")
        #expect((first.displayOrder, second.displayOrder) == (1, 2))
        let a = try store.assign(questionId: first.id!, to: "Myself")
        let b = try store.assign(questionId: second.id!, to: "1")
        #expect(a.linkToken.count == 32 && a.linkToken != b.linkToken)
        #expect(try store.assignments(status: .pending).count == 2)
        // The same open question for the same person (by name or id) is refused, naming the assignment.
        #expect(throws: StoreError.conflict("question #\(first.id!) is already assigned to Myself as assignment #\(a.id) "
                                            + "(pending); answer it with: voicejournal answer \(a.id)")) {
            try store.assign(questionId: first.id!, to: "1")
        }
        #expect(try store.assignments(status: .pending).count == 2)
        #expect(try store.assignments(status: .answered).isEmpty)
    }

    @Test func enqueueingTheSameRecordingTwiceKeepsOneJob() throws {
        _ = try addVoiceEntry(journal: "Personal", transcript: "x", sha: "s5")
        let recordingId = try store.pool.read { db in try Int64.fetchOne(db, sql: "SELECT id FROM recording")! }
        let again = try store.queue.enqueueTranscription(recordingId: recordingId, priority: Job.batchPriority)
        #expect(again.priority == Job.livePriority, "the existing job is returned unchanged")
        #expect(try store.pool.read { db in try Job.fetchCount(db) } == 1)
    }
}
