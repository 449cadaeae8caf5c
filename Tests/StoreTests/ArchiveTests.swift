import Foundation
import GRDB
import Testing
import VoiceJournalSystem
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// `export --format json` and `import`: a whole journal, table by table, there and back.
@Suite(.onTestThreads) struct ArchiveTests {
    /// Every table of the database (the search index's included, SQLite's and the migration
    /// log's not) with all its rows in rowid order.
    static func dump(_ store: JournalStore) throws -> [String: [[String: DatabaseValue]]] {
        try store.pool.read { db in
            let tables = try String.fetchAll(db, sql: """
                SELECT name FROM sqlite_master WHERE type = 'table'
                AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' AND name NOT LIKE 'search_index_%'
                AND name != 'passage_vector' AND name NOT LIKE 'reflection_index%'
                """)
            var dump: [String: [[String: DatabaseValue]]] = [:]
            for table in tables {
                dump[table] = try Row.fetchAll(db, sql: "SELECT rowid AS \"rowid\", * FROM \(table) ORDER BY rowid").map { row in
                    Dictionary(uniqueKeysWithValues: row.map { ($0, $1) })
                }
            }
            return dump
        }
    }

    /// A journal with everything in it: people, a dedicated journal, questions, an answered
    /// and a pending assignment, entries of each kind, recordings (an answer, a batch file in
    /// a journal), transcripts with segments, a queued job split into a chunk, a failed job.
    static let start = Date(timeIntervalSince1970: 1_790_000_000.123)

    static func keepEverything(_ store: JournalStore) throws {
        let start = Self.start
        let rose = try store.addPerson(name: "Grandma Rose", relationship: "grandmother", email: "rose@example.org", now: start)
        var stories = try store.createJournal(name: "Rose's stories", description: "For the grandchildren", now: start)
        stories.dedicatedToPersonId = rose.id
        let dedicated = stories
        try store.pool.write { db in try dedicated.update(db) }
        let question = try store.addQuestion(journal: "Rose's stories", text: "Where did you grow up?", now: start)
        _ = try store.addQuestion(journal: "Rose's stories", text: "Who was your best friend?", now: start)
        let assignment = try store.assign(questionId: question.id!, to: "Grandma Rose", now: start)
        _ = try store.assign(questionId: question.id!, to: "me", now: start)
        for (day, mood) in [(0, Mood.happy), (1, .sad), (3, .grateful)] {
            _ = try store.addEntry(journal: nil, kind: day == 3 ? .gratitude : .text, title: day == 0 ? "First" : nil,
                                   content: "Entry on day \(day) — ümlaut, \"quotes\"\nand a new line", mood: mood,
                                   theme: day == 1 ? .health : nil, createdAt: start.addingTimeInterval(Double(day) * 86_400.5))
        }
        let answer = try store.addAnswer(
            assignmentId: assignment.id, format: "flac", sampleRate: 16000, channels: 1,
            facts: RecordingFacts(sha256: String(repeating: "a", count: 64), durationSeconds: 12.345678, sizeBytes: 4096,
                                  peakDBFS: -1.25, rmsDBFS: -18.0625),
            now: start.addingTimeInterval(100)) { id in "/home/me/.local/share/voicejournal/audio/2026/09/\(id).flac" }
        let batch = try store.queue.addBatchFiles([
            Recording(path: "/music/podcast one.mp3", sha256: String(repeating: "b", count: 64), durationSeconds: 3600.5,
                      sampleRate: 44100, channels: 2, format: "mp3", sizeBytes: 50_000_000, modifiedNanoseconds: 1_790_000_000_123_456_789,
                      state: .complete),
            Recording(path: "/music/broken.wav", sha256: String(repeating: "c", count: 64), durationSeconds: 1,
                      sampleRate: 8000, channels: 1, format: "wav", state: .complete),
        ], journalName: "Rose's stories", now: start.addingTimeInterval(200))
        // The answer transcribed through the queue, with segments; the podcast split into a chunk.
        let claimed = try #require(try store.queue.claimNextJob(owner: "host:1:abc", lease: 60, now: start.addingTimeInterval(300)))
        #expect(claimed.recordingId == answer.recording.id)
        try store.queue.completeJob(id: claimed.id!, owner: "host:1:abc", transcript: Transcript(
            recordingId: claimed.recordingId, text: "By the harbour, in a blue house.", language: "english", model: "whisper-1",
            segments: [.init(start: 0, end: 2.5, text: "By the harbour,", avgLogprob: -0.25, noSpeechProb: 0.01,
                             words: [.init(start: 0, end: 0.4, word: " By"), .init(start: 0.4, end: 0.6, word: " the"),
                                     .init(start: 0.6, end: 2.5, word: " harbour,")]),
                       .init(start: 2.5, end: 12.3, text: " in a blue house.", avgLogprob: -1.4, noSpeechProb: 0.2)],
            unheard: [.init(start: 7.25, end: 9.5)],
            leftOut: [.init(start: 10, end: 12, text: " Thanks for watching!", reason: "silence")],
            audioSentSeconds: 11.5, resends: 1),
                              now: start.addingTimeInterval(400))
        let podcastJob = try #require(try store.queue.claimNextJob(owner: "host:1:abc", lease: 60, now: start.addingTimeInterval(500)))
        #expect(try store.queue.splitJob(id: podcastJob.id!, owner: "host:1:abc",
                                   chunks: [PlannedChunk(startSeconds: 0, path: "/tmp/1-abc-job\(podcastJob.id!)-part1.flac")],
                                   durationSeconds: 3600.5, now: start.addingTimeInterval(600)))
        let brokenJob = try #require(try store.queue.claimNextJob(owner: "host:1:abc", lease: 60, now: start.addingTimeInterval(700)))
        try store.queue.failJob(id: brokenJob.id!, owner: "host:1:abc", error: "400: Invalid file format", retryAt: nil)
        #expect(batch.count == 2)
        // A journal's vocabulary, and a corrected entry that keeps its original.
        try store.addVocabulary(["Anneliese", "Jörg"], journal: "Rose's stories", now: start.addingTimeInterval(800))
        try store.correctEntry(id: 1, text: "Entry on day 0, corrected", now: start.addingTimeInterval(900))
        // A reflection kept on an entry, as `reflect` stores one.
        _ = try store.addReflection(StoredReflection(
            entryId: 1, periodKind: .entry, status: .failed, reasons: ["mood \"joyful\" is not one of happy, …"], fields: nil,
            model: "SmolLM2-135M-Instruct", endpointHost: "127.0.0.1:8179", promptVersion: "reflect-1", requests: 2,
            inputTokens: 740, outputTokens: 260, seconds: 3.5, cost: 0, createdAt: start.addingTimeInterval(1000)))
        // Reflections asked for automatically: one done, one still queued.
        try store.queueReflection(entryId: 1, now: start.addingTimeInterval(1100))
        let reflectionJob = try #require(try store.claimReflectionJob(owner: "host:1:abc", lease: 60, now: start.addingTimeInterval(1200)))
        #expect(try store.finishReflectionJob(id: reflectionJob.id!, owner: "host:1:abc", reflectionId: 1, now: start.addingTimeInterval(1300)))
        try store.queueReflection(entryId: 2, now: start.addingTimeInterval(1400))
        // A conversation with the journal, its turn citing entry 1.
        _ = try store.addAskTurn(AskTurn(
            conversationId: 0, question: "When was day 0?", rangeText: "last week (Mon – Sun)", rangeStart: start, rangeEnd: start.addingTimeInterval(86_400),
            passages: [.init(number: 1, entryId: 1, start: nil, end: nil)], facts: ["1 entry in the period asked about"],
            answer: "On day 0 [1].", cited: [1], removed: [4], incomplete: nil, model: "SmolLM2-135M-Instruct", endpointHost: "127.0.0.1:8179",
            promptVersion: "ask-1", inputTokens: 300, outputTokens: 12, seconds: 0.8, firstTextSeconds: 0.2, cost: 0,
            createdAt: start.addingTimeInterval(1500)))
        // The question's email, sent (a queued one is not carried as queued: see the import).
        let delivery = try store.enqueue(Delivery(assignmentId: assignment.id, kind: .send, recipient: "rose@example.org",
                                                  subject: "Sam asks: Where did you grow up?", message: "Subject: x\r\n\r\nHello\r\n",
                                                  messageId: "<1@example.org>", now: start.addingTimeInterval(1600)))
        _ = try store.claimDelivery(owner: "here:1:a", lease: 60, now: start.addingTimeInterval(1600))
        _ = try store.markDeliveryStarted(id: delivery.id!, owner: "here:1:a", now: start.addingTimeInterval(1601))
        _ = try store.finishDelivery(id: delivery.id!, owner: "here:1:a", .sent(code: 250, reply: "250 2.0.0 Ok"),
                                     now: start.addingTimeInterval(1602))
        // A nudge to journal sent by email, on a day without entries.
        let quiet = start.addingTimeInterval(10 * 86_400)
        guard case .claimed(let nudge) = try store.claimNudge(day: "2026-09-30", from: quiet, to: quiet.addingTimeInterval(86_400),
                                                               owner: LeaseOwner(host: "host", pid: 1, nonce: "abc"), claiming: true,
                                                               now: quiet.addingTimeInterval(72_000)) else {
            Issue.record("the nudge was not claimed")
            return
        }
        #expect(try store.finishNudge(nudge, channel: .email, reply: "250 2.0.0 Ok", now: quiet.addingTimeInterval(72_001)) != nil)
    }

    @Test func anExportImportedIntoAnEmptyHomeReproducesEveryRowTableByTable() throws {
        let source = try TemporaryJournal()
        try Self.keepEverything(source.store)
        // Through JSON text, as `export` writes it and `import` reads it.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let archive = try decoder.decode(JournalArchive.self, from: try encoder.encode(try source.store.archiver.archive()))
        let order = archive.tables.map(\.name)
        let at = { (name: String) in order.firstIndex(of: name) ?? .max }
        #expect(at("person") < at("journal") && at("journal") < at("question") && at("question") < at("assignment")
                && at("ask_conversation") < at("ask_turn"), "parents first: \(order)")
        #expect(!order.contains("passage_vector"), "embeddings are made again, not carried")
        #expect(!archive.tables.map(\.name).contains("search_index"))

        let target = try TemporaryJournal()
        let imported = try target.store.archiver.importArchive(archive)
        #expect(imported["entry"] == 5 && imported["transcript"] == 1 && imported["job_chunk"] == 1)
        let before = try Self.dump(source.store), after = try Self.dump(target.store)
        #expect(before.keys.sorted() == after.keys.sorted())
        for table in before.keys.sorted() {
            #expect(before[table]?.isEmpty == false, "\(table) has rows to compare")
            #expect(before[table] == after[table], "table \(table)")
        }
        #expect(try target.store.search("harbour").count == 1)
        #expect(try target.store.transcript(recordingId: 1)?.segments.count == 2)
        // The review's fields come back as they were stored, and left-out text stays unsearchable.
        let transcript = try #require(try target.store.transcript(recordingId: 1))
        #expect(transcript == (try source.store.transcript(recordingId: 1)))
        #expect(transcript.segments.map(\.isLowConfidence) == [false, true])
        #expect(transcript.segments[0].words?.count == 3 && transcript.unheard == [.init(start: 7.25, end: 9.5)])
        #expect(transcript.leftOut.first?.reason == "silence" && transcript.audioSentSeconds == 11.5 && transcript.resends == 1)
        #expect(try target.store.search("watching").isEmpty)
    }

    /// Rows per table of an archive.
    static func counts(_ archive: JournalArchive) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: archive.tables.map { ($0.name, $0.rows.count) })
    }

    @Test func aPartOfTheJournalKeepsWhatItsRowsReferToAndImportsOnItsOwn() throws {
        let source = try TemporaryJournal()
        try Self.keepEverything(source.store)
        let stories = try source.store.archiver.archive(ArchiveSelection(journal: "rose's STORIES"))
        let counts = Self.counts(stories)
        #expect(counts["nudge"] == 0 && counts["ask_conversation"] == 0, "the user's, not a journal's: whole archives only")
        #expect(counts["journal"] == 1 && counts["question"] == 2 && counts["assignment"] == 2 && counts["person"] == 2)
        #expect(counts["entry"] == 2, "the two batch files filed there, not Personal's entries")
        #expect(counts["recording"] == 3 && counts["transcript"] == 1 && counts["job"] == 4 && counts["job_chunk"] == 1)
        let target = try TemporaryJournal()
        #expect(try target.store.archiver.importArchive(stories)["entry"] == 2)
        #expect(try target.store.search("harbour").count == 1)

        // The first moments only: the first entry; the answer and batch files came later.
        let early = try source.store.archiver.archive(ArchiveSelection(until: Self.start.addingTimeInterval(50)))
        #expect(Self.counts(early)["entry"] == 1 && Self.counts(early)["recording"] == 0 && Self.counts(early)["job"] == 0)
        #expect(Self.counts(early)["journal"] == 2 && Self.counts(early)["transcript"] == 0)
        let later = try source.store.archiver.archive(ArchiveSelection(since: Self.start.addingTimeInterval(150)))
        #expect(Self.counts(later)["entry"] == 4 && Self.counts(later)["recording"] == 2, "the batch files, not the answer")
        #expect(try TemporaryJournal().store.archiver.importArchive(later)["job_chunk"] == 1)
    }

    @Test func anImportRefusesAHomeThatHoldsAJournalAndChangesNothing() throws {
        let source = try TemporaryJournal()
        try Self.keepEverything(source.store)
        let archive = try source.store.archiver.archive()
        let target = try TemporaryJournal()
        _ = try target.store.addEntry(journal: nil, title: nil, content: "mine", mood: nil, theme: nil)
        let before = try Self.dump(target.store)
        #expect { try target.store.archiver.importArchive(archive) } throws: { error in
            (error as? StoreError)?.kind == .conflict && "\(error)".contains("1 entry row")
        }
        #expect(try Self.dump(target.store) == before)
    }

    @Test func anArchiveFromANewerSchemaOrWithUnknownTablesIsRefused() throws {
        let source = try TemporaryJournal()
        var newer = try source.store.archiver.archive()
        newer.migrations.append("v99-future")
        #expect(throws: StoreError.self) { try TemporaryJournal().store.archiver.importArchive(newer) }
        var unknown = try source.store.archiver.archive()
        unknown.tables.append(.init(name: "hologram", rows: []))
        #expect(throws: StoreError.self) { try TemporaryJournal().store.archiver.importArchive(unknown) }
        var column = try source.store.archiver.archive()
        let people = try #require(column.tables.firstIndex { $0.name == "person" })
        column.tables[people].rows[0]["mood"] = .text("happy")
        #expect(throws: StoreError.self) { try TemporaryJournal().store.archiver.importArchive(column) }
    }

    @Test func anImportChecksTheNudgesAndAHomeWithOnlyNudgesIsANewOne() throws {
        let source = try TemporaryJournal()
        try Self.keepEverything(source.store)
        let archive = try source.store.archiver.archive()
        let nudges = try #require(archive.tables.firstIndex { $0.name == "nudge" })
        for (column, value, problem) in [("day", JournalArchive.Value.text("2026-02-30"), "not a day"),
                                         ("channel", .text("pigeon"), "one of desktop, email"),
                                         ("reply", .text(String(repeating: "x", count: 1001)), "longer than 1000")] {
            var crafted = archive
            crafted.tables[nudges].rows[0][column] = value
            #expect { try TemporaryJournal().store.archiver.importArchive(crafted) } throws: { error in
                (error as? StoreError)?.kind == .invalidInput && "\(error)".contains("nudge #1 \(column)") && "\(error)".contains(problem)
            }
        }
        // A home whose journal holds nothing but a nudge (a timer's run made it) takes the import.
        let target = try TemporaryJournal()
        let today = Date()
        _ = try target.store.claimNudge(day: "2026-10-01", from: today, to: today.addingTimeInterval(1), owner: .current(),
                                        claiming: true, now: today)
        #expect(try target.store.archiver.importArchive(archive)["nudge"] == 1)
        #expect(try target.store.nudges().map(\.day) == ["2026-09-30"])
    }
}
