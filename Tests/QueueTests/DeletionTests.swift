import Foundation
import Logging
import VoiceJournalBatch
import VoiceJournalQueue
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

/// Deletes through the pipeline: rows, search index, jobs, chunk and audio files all go;
/// what belongs to someone else, and files outside the home, stay.
@Suite(.onTestThreads) struct DeletionTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    var home: URL { store.home.url }
    let logger = Logger(label: "test")

    init() throws { journal = try TemporaryJournal() }

    /// A journal dedicated to `person`, made the way `journal create --for` makes one.
    func dedicatedJournal(_ name: String, to person: Person) throws -> Journal {
        var made = try store.createJournal(name: name)
        made.dedicatedToPersonId = person.id
        let updated = made
        try store.pool.write { db in try updated.update(db) }
        return made
    }

    /// Answers an assignment with a real audio file placed inside the home (as `answer --file`
    /// does), optionally with its transcript.
    func answer(_ assignment: AssignmentSummary, text: String?) throws -> CompletedRecording {
        let source = try makeTone(at: journal.folder.path("answer-\(assignment.id).wav"), seconds: 0.2,
                                  frequency: 300 + Int(assignment.id) * 11)
        let facts = RecordingFacts(sha256: try sha256sum(source), durationSeconds: 0.2, sizeBytes: 6444,
                                   peakDBFS: -3, rmsDBFS: -6)
        let completed = try store.addAnswer(assignmentId: assignment.id, format: "wav", sampleRate: 16000, channels: 1,
                                            facts: facts) { id in
            let folder = store.home.audioFolder(for: Date())
            try store.home.createPrivateFolder(folder)
            let placed = folder.appendingPathComponent("answer-\(id).wav")
            try FileManager.default.copyItem(at: source, to: placed)
            return placed.path
        }
        if let text {
            let transcript = Transcript(recordingId: completed.recording.id!, text: text, model: "whisper-1",
                                        segments: [.init(start: 0, end: 0.2, text: text)])
            try store.pool.write { db in
                var row = transcript
                try row.insert(db)
                try db.execute(sql: "UPDATE job SET state = 'done' WHERE recordingId = ?", arguments: [completed.recording.id])
            }
        }
        return completed
    }

    func count(_ sql: String, _ arguments: [Int64] = []) throws -> Int {
        try store.pool.read { db in try Int.fetchOne(db, sql: sql, arguments: .init(arguments)) ?? -1 }
    }

    @Test func deletingAPersonTakesTheirJournalsAnswersJobsAndFilesAndNoOneElses() throws {
        let rose = try store.addPerson(name: "Grandma Rose", relationship: "grandmother", email: nil)
        let sam = try store.addPerson(name: "Uncle Sam", relationship: "uncle", email: nil)
        _ = try dedicatedJournal("Rose's stories", to: rose)
        _ = try dedicatedJournal("Sam's stories", to: sam)
        _ = try store.createJournal(name: "Family")
        let roseOnly = try store.addQuestion(journal: "Rose's stories", text: "Where did you grow up?")
        let samOnly = try store.addQuestion(journal: "Sam's stories", text: "What was your first job?")
        let shared = try store.addQuestion(journal: "Family", text: "What did we eat at Christmas?")
        let roseAnswered = try answer(store.assign(questionId: roseOnly.id!, to: "Grandma Rose"), text: "a harbour town")
        let roseQueued = try answer(store.assign(questionId: shared.id!, to: "Grandma Rose"), text: nil)
        let samAnswered = try answer(store.assign(questionId: samOnly.id!, to: "Uncle Sam"), text: "a ferry deckhand")
        let samShared = try answer(store.assign(questionId: shared.id!, to: "Uncle Sam"), text: "goose and dumplings")
        _ = try store.addEntry(journal: "Rose's stories", title: nil, content: "Rose's harbour notes", mood: .happy, theme: nil)
        _ = try store.addEntry(journal: "Sam's stories", title: nil, content: "Sam's ferry notes", mood: nil, theme: nil)

        // A file from a transcribed folder, filed in Rose's journal: its row goes, the file stays.
        let batchFile = try makeTone(at: journal.folder.path("podcast.wav"), seconds: 0.2, frequency: 990)
        let batch = try BatchQueue.enqueue(BatchScanner.walk([batchFile.path]).files, queue: store.queue,
                                           journalName: "Rose's stories", priority: Job.batchPriority, logger: logger).queued
        #expect(batch.count == 1)
        // Rose's unanswered recording was split for upload: a chunk job and its file under tmp/.
        let chunkFile = home.appendingPathComponent("tmp/123-abc-job\(roseQueued.job.id!)-part1.flac")
        try store.home.createPrivateFolder(chunkFile.deletingLastPathComponent())
        try Data("chunk".utf8).write(to: chunkFile)
        let parent = try #require(roseQueued.job.id)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE job SET state = 'running', leaseOwner = 'worker' WHERE id = ?", arguments: [parent])
        }
        #expect(try store.queue.splitJob(id: parent, owner: "worker", chunks: [PlannedChunk(startSeconds: 0, path: chunkFile.path)],
                                   durationSeconds: 0.2))

        let rosesFiles = [roseAnswered.recording.path, roseQueued.recording.path]
        let samsFiles = [samAnswered.recording.path, samShared.recording.path]
        for path in rosesFiles + samsFiles + [batchFile.path] { #expect(FileManager.default.fileExists(atPath: path)) }

        let plan = try store.deleter.deletionPlan(.person("grandma rose"))
        #expect(plan.journals == ["Rose's stories"])
        #expect(plan.questions == 1 && plan.assignments == 2 && plan.entries == 2)
        #expect(plan.recordings == 3 && plan.transcripts == 1)
        #expect(plan.unfinishedJobs >= 2, "Rose's queued answer (and its chunk) and the batch file's job")
        #expect(Set(plan.audioFiles) == Set(rosesFiles))
        #expect(plan.keptAudioFiles == [batchFile.path])
        #expect(plan.chunkFiles == [chunkFile.path])

        let outcome = try Deletion.run(.person("Grandma Rose"), store: store, expecting: plan, logger: logger)
        #expect(Set(outcome.removedFiles) == Set(rosesFiles + [chunkFile.path]))
        #expect(outcome.leftFiles.isEmpty)
        for path in rosesFiles + [chunkFile.path] { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
        for path in samsFiles + [batchFile.path] { #expect(FileManager.default.fileExists(atPath: path), "\(path)") }

        #expect(try store.people().map(\.name) == ["Myself", "Uncle Sam"])
        #expect(try store.journals().map(\.name) == ["Sam's stories", "Family"])
        #expect(try store.questions().map(\.text).sorted() == ["What did we eat at Christmas?", "What was your first job?"])
        #expect(try store.assignments().map(\.person) == ["Uncle Sam", "Uncle Sam"])
        let roseRecordings = [roseAnswered.recording.id!, roseQueued.recording.id!, batch[0].outcome.recordingId]
        for id in roseRecordings {
            #expect(try store.recording(id: id) == nil)
            #expect(try count("SELECT count(*) FROM job WHERE recordingId = ?", [id]) == 0)
        }
        #expect(try count("SELECT count(*) FROM job_chunk") == 0)
        #expect(try count("SELECT count(*) FROM chunked_job") == 0)
        #expect(try count("SELECT count(*) FROM transcript") == 2)
        #expect(try count("SELECT count(*) FROM recording") == 2)
        #expect(try count("SELECT count(*) FROM job") == 2)
        // The search index holds exactly the rows that are left: nothing of Rose's is found.
        #expect(try count("SELECT count(*) FROM search_index")
                == count("SELECT count(*) FROM entry") + count("SELECT count(*) FROM transcript"))
        #expect(try store.search("harbour").isEmpty)
        #expect(try !store.search("ferry").isEmpty)
    }

    @Test func aDeleteRefusesWhenTheJournalChangedSinceThePlanWasShown() throws {
        _ = try store.createJournal(name: "Travel")
        _ = try store.addEntry(journal: "Travel", title: nil, content: "Lisbon trams", mood: nil, theme: nil)
        let plan = try store.deleter.deletionPlan(.journal("Travel"))
        _ = try store.addEntry(journal: "Travel", title: nil, content: "Porto bridges", mood: nil, theme: nil)
        #expect(throws: StoreError.self) { try Deletion.run(.journal("Travel"), store: store, expecting: plan, logger: logger) }
        #expect(try store.entries().count == 2, "nothing was deleted")
        #expect(try Deletion.run(.journal("travel"), store: store, logger: logger).plan.entries == 2)
        #expect(try store.entries().isEmpty)
    }

    @Test func aTranscriptArrivingAfterThePlanWasShownDoesNotStopTheDelete() throws {
        _ = try store.addPerson(name: "Rose", relationship: nil, email: nil)
        _ = try store.createJournal(name: "Family")
        let question = try store.addQuestion(journal: "Family", text: "Where did you grow up?")
        let answered = try answer(store.assign(questionId: question.id!, to: "Rose"), text: nil)
        let plan = try store.deleter.deletionPlan(.person("Rose"))
        #expect(plan.transcripts == 0 && plan.unfinishedJobs == 1)
        // The queue finishes the answer while the user reads the list.
        let claimed = try #require(try store.queue.claimNextJob(owner: "runner", lease: 60))
        try store.queue.completeJob(id: claimed.id!, owner: "runner", transcript: Transcript(
            recordingId: answered.recording.id!, text: "by the harbour", model: "whisper-1"))
        let outcome = try Deletion.run(.person("Rose"), store: store, expecting: plan, logger: logger)
        #expect(outcome.plan.transcripts == 1)
        #expect(try count("SELECT count(*) FROM transcript") == 0 && count("SELECT count(*) FROM search_index") == 0)
    }

    @Test func anEntryBeingRecordedRightNowIsNotDeleted() throws {
        let started = try store.beginRecording(owner: .entry(journal: "Personal", title: nil, mood: nil, theme: nil),
                                               format: "wav", sampleRate: 16000, channels: 1) { id in
            (home.appendingPathComponent("take-\(id).wav").path, ())
        }
        let entry = try #require(started.recording.entryId)
        #expect { try Deletion.run(.entry(entry), store: store, logger: logger) } throws: { error in
            (error as? StoreError)?.kind == .conflict && "\(error)".contains("being recorded right now")
        }
        #expect(try store.recording(id: started.recording.id!) != nil)
    }

    @Test func myselfCannotBeDeleted() throws {
        #expect(throws: StoreError.self) { try store.deleter.deletionPlan(.person("me")) }
    }

    @Test func aRecordingDeletedWhileItsUploadRunsIsNeitherStoredNorCrashesTheRun() async throws {
        let person = try store.addPerson(name: "Rose", relationship: nil, email: nil)
        _ = try dedicatedJournal("Rose's stories", to: person)
        let question = try store.addQuestion(journal: "Rose's stories", text: "What was the harbour like?")
        let answered = try answer(store.assign(questionId: question.id!, to: "Rose"), text: nil)
        // Each answer takes three seconds: the delete lands while the upload is held.
        let server = try StubWhisperServer(delay: 3)
        var configuration = WhisperClient.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.timeout = 30
        let runner = QueueRunner(queue: store.queue, client: WhisperClient(configuration: configuration, logger: logger), jobs: 1,
                                 options: .init(retry: RetryPolicy(base: 0.01, cap: 0.05), lease: 30, idlePoll: 0.02),
                                 logger: logger)
        let deleter = StartedThread { [store, logger] () -> Bool in
            // The deadline only guards a hang: a busy test pool can hold the run's task for long.
            let deadline = Date().addingTimeInterval(900)
            while try store.queue.queueCounts().running < 1 {
                guard Date() < deadline else { return false }
                Thread.sleep(forTimeInterval: 0.005)
            }
            Thread.sleep(forTimeInterval: 1)
            _ = try Deletion.run(.person("Rose"), store: store, logger: logger)
            return true
        }
        let summary = try await runner.run(until: .drainQueue)
        #expect(try await deleter.value, "the upload was never seen running")
        #expect(summary.transcribed == 0)
        #expect(try server.requests().count == 1)
        #expect(try store.recording(id: answered.recording.id!) == nil)
        #expect(try count("SELECT count(*) FROM transcript") == 0, "the late answer was not stored")
        #expect(try count("SELECT count(*) FROM job") == 0)
        #expect(try count("SELECT count(*) FROM search_index") == 0)
        #expect(!FileManager.default.fileExists(atPath: answered.recording.path))
    }
}
