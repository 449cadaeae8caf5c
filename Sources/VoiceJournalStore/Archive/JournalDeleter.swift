import Foundation
import GRDB

/// Something the user asks to delete, with everything that belongs to it.
package enum DeletionTarget: Sendable, Equatable {
    /// An entry, with its recordings, transcripts and jobs.
    case entry(Int64)
    /// A question, with its assignments and their answers.
    case question(Int64)
    /// A journal (by name), with its entries and questions.
    case journal(String)
    /// A person (by name or id), with their assignments and answers and the journals
    /// dedicated to them.
    case person(String)
}

/// What a delete takes with it, counted and listed before anything goes, so the user can
/// be told exactly what will be removed.
package struct DeletionPlan: Codable, Sendable, Equatable {
    /// What was asked for, in words: `person "Grandma Rose" (#2)`.
    package var target: String
    package var people: Int
    /// The journals' names (the named one, or those dedicated to the person).
    package var journals: [String]
    package var questions: Int
    package var assignments: Int
    package var entries: Int
    package var recordings: Int
    package var transcripts: Int
    /// Transcription jobs of those recordings (chunk jobs included), whatever their state.
    package var jobs: Int
    /// Of those, the ones still waiting or running.
    package var unfinishedJobs: Int
    /// Audio files voicejournal made (under the home's audio folder): removed with their recordings.
    package var audioFiles: [String]
    /// Audio files it did not make (batch-transcribed folders, anything an imported row names
    /// outside the audio folder) or that another recording still names: never removed.
    package var keptAudioFiles: [String]
    /// Encoded chunk files of split recordings, under the home's `tmp/`: removed.
    package var chunkFiles: [String]

    /// Whether `other` deletes the same things: the same rows of what the user named and the
    /// same audio files. Transcripts, jobs and chunk files may differ: a queue runner at work
    /// changes those between the question and the answer, and they go either way.
    package func deletesTheSame(as other: DeletionPlan) -> Bool {
        target == other.target && people == other.people && journals == other.journals && questions == other.questions
            && assignments == other.assignments && entries == other.entries && recordings == other.recordings
            && audioFiles == other.audioFiles && keptAudioFiles == other.keptAudioFiles
    }
}

extension JournalDeleter {
    /// Deletes an entry with its recordings, transcripts and jobs (see `delete(_:expecting:)`).
    /// Returns the paths of its audio files, inside the home or not; the caller removes
    /// those it owns.
    @discardableResult
    package func deleteEntry(id: Int64) throws -> [String] {
        let plan = try delete(.entry(id))
        return plan.audioFiles + plan.keptAudioFiles
    }

    /// What deleting `target` would remove; nothing is changed.
    package func deletionPlan(_ target: DeletionTarget) throws -> DeletionPlan {
        try pool.read { db in try Self.doomedRows(db, target, home: home).plan }
    }

    /// Deletes `target` and everything that belongs to it in one transaction: rows, search
    /// index (by trigger) and queued jobs. Files are not touched: the plan returned lists
    /// the audio and chunk files the caller removes (those inside the home). With
    /// `expecting`, the delete goes ahead only if it still removes what that plan (shown to
    /// the user) said (see `deletesTheSame(as:)`); otherwise it throws a conflict and
    /// changes nothing.
    @discardableResult
    package func delete(_ target: DeletionTarget, expecting: DeletionPlan? = nil) throws -> DeletionPlan {
        try immediateWrite { db in
            let doomed = try Self.doomedRows(db, target, home: home)
            if let expecting, !expecting.deletesTheSame(as: doomed.plan) {
                throw StoreError.conflict("the journal changed while you were asked; nothing was deleted, run the command again")
            }
            // Children first, though the schema cascades too: each table's triggers (the
            // search index) run for every row either way.
            for (table, ids) in [("recording", doomed.recordings), ("entry", doomed.entries), ("assignment", doomed.assignments),
                                 ("question", doomed.questions), ("journal", doomed.journals), ("person", doomed.people)] {
                let statement = try db.cachedStatement(sql: "DELETE FROM \(table) WHERE id = ?")
                for id in ids { try statement.execute(arguments: [id]) }
            }
            // The words go from the second search index now too, not at the next search.
            try SearchScripts.sync(db)
            return doomed.plan
        }
    }

    /// The ids of every row `target` takes with it, and the plan describing them.
    private static func doomedRows(_ db: Database, _ target: DeletionTarget, home: DataHome) throws -> DoomedRows {
        var doomed = DoomedRows()
        let description: String
        switch target {
        case .entry(let id):
            guard try Entry.fetchOne(db, key: id) != nil else {
                throw StoreError.notFound("no entry #\(id); see: voicejournal entry list")
            }
            description = "entry #\(id)"
            doomed.entries = [id]
        case .question(let id):
            guard let question = try Question.fetchOne(db, key: id) else {
                throw StoreError.notFound("no question #\(id); see: voicejournal question list")
            }
            description = "question #\(id) (\"\(question.text)\")"
            doomed.questions = [id]
        case .journal(let name):
            let journal = try JournalStore.journal(db, named: name)
            description = "journal \"\(journal.name)\""
            doomed.journals = [journal.id].compactMap { $0 }
        case .person(let reference):
            let person = try JournalStore.person(db, matching: reference)
            guard person.relationship != Person.selfRelationship, let id = person.id else {
                throw StoreError.invalidInput("\"\(person.name)\" is you and cannot be deleted")
            }
            description = "person \"\(person.name)\" (#\(id))"
            doomed.people = [id]
            doomed.journals = try ids(db, "SELECT id FROM journal WHERE dedicatedToPersonId = ? ORDER BY id", [id])
            doomed.assignments = try ids(db, "SELECT id FROM assignment WHERE personId = ?", [id])
        }
        for journal in doomed.journals {
            doomed.questions += try ids(db, "SELECT id FROM question WHERE journalId = ?", [journal])
            doomed.entries += try ids(db, "SELECT id FROM entry WHERE journalId = ?", [journal])
        }
        for question in doomed.questions {
            doomed.assignments += try ids(db, "SELECT id FROM assignment WHERE questionId = ?", [question])
        }
        doomed.assignments = Array(Set(doomed.assignments)).sorted()
        for entry in doomed.entries {
            doomed.recordings += try ids(db, "SELECT id FROM recording WHERE entryId = ?", [entry])
        }
        for assignment in doomed.assignments {
            doomed.recordings += try ids(db, "SELECT id FROM recording WHERE assignmentId = ?", [assignment])
        }
        doomed.recordings = Array(Set(doomed.recordings)).sorted()
        var plan = DeletionPlan(
            target: description, people: doomed.people.count,
            journals: try doomed.journals.compactMap { try String.fetchOne(db, sql: "SELECT name FROM journal WHERE id = ?", arguments: [$0]) },
            questions: doomed.questions.count, assignments: doomed.assignments.count, entries: doomed.entries.count,
            recordings: doomed.recordings.count, transcripts: 0, jobs: 0, unfinishedJobs: 0,
            audioFiles: [], keptAudioFiles: [], chunkFiles: [])
        // Rows a killed recorder left are completed when the store is opened for writing;
        // one still `recording` is being captured right now, into a file that would be
        // pulled from under the recorder.
        for recording in doomed.recordings
        where try String.fetchOne(db, sql: "SELECT state FROM recording WHERE id = ?", arguments: [recording]) == RecordingState.recording.rawValue {
            throw StoreError.conflict("recording \(recording) is being recorded right now; stop it first, then delete \(description)")
        }
        // Only files voicejournal made go (see `HomeFiles`): a recording's under `audio/` that
        // no recording left behind still names, a chunk's under `tmp/`. The rest are kept.
        let files = HomeFiles(home)
        var paths: [String] = []
        for recording in doomed.recordings {
            plan.transcripts += try count(db, "SELECT count(*) FROM transcript WHERE recordingId = ?", [recording])
            plan.jobs += try count(db, "SELECT count(*) FROM job WHERE recordingId = ?", [recording])
            plan.unfinishedJobs += try count(db, "SELECT count(*) FROM job WHERE recordingId = ? AND state IN ('queued', 'running')", [recording])
            plan.chunkFiles += try String.fetchAll(db, sql: """
                SELECT c.path FROM job_chunk c JOIN job j ON j.id = c.jobId WHERE j.recordingId = ? ORDER BY c.path
                """, arguments: [recording]).filter { files.place(of: $0) == .temporary }
            if let path = try String.fetchOne(db, sql: "SELECT path FROM recording WHERE id = ?", arguments: [recording]),
               !path.isEmpty, !paths.contains(path) {
                paths.append(path)
            }
        }
        let stillNamed = try Self.pathsNamedByOthers(db, paths: paths, recordings: doomed.recordings)
        for path in paths {
            if files.place(of: path) == .audio, !stillNamed.contains(path) {
                plan.audioFiles.append(path)
            } else {
                plan.keptAudioFiles.append(path)
            }
        }
        doomed.plan = plan
        return doomed
    }

    /// Of `paths`, those a recording other than `recordings` names too.
    private static func pathsNamedByOthers(_ db: Database, paths: [String], recordings: [Int64]) throws -> Set<String> {
        guard !paths.isEmpty else { return [] }
        let encoder = JSONEncoder()
        return Set(try String.fetchAll(db, sql: """
            SELECT DISTINCT path FROM recording
            WHERE path IN (SELECT value FROM json_each(?)) AND id NOT IN (SELECT value FROM json_each(?))
            """, arguments: [String(decoding: try encoder.encode(paths), as: UTF8.self),
                             String(decoding: try encoder.encode(recordings), as: UTF8.self)]))
    }

    private static func ids(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Int64] {
        try Int64.fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    private static func count(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? 0
    }
}

/// The ids a delete removes, table by table.
private struct DoomedRows {
    var people: [Int64] = []
    var journals: [Int64] = []
    var questions: [Int64] = []
    var assignments: [Int64] = []
    var entries: [Int64] = []
    var recordings: [Int64] = []
    var plan = DeletionPlan(target: "", people: 0, journals: [], questions: 0, assignments: 0, entries: 0, recordings: 0,
                            transcripts: 0, jobs: 0, unfinishedJobs: 0, audioFiles: [], keptAudioFiles: [], chunkFiles: [])
}
