import GRDB

/// The schema, as an ordered list of migrations. A migration that has shipped is never
/// edited: a change to the schema is a new migration at the end.
package enum Migrations {
    /// Identifiers in the order they run; tests migrate up to one of them.
    package static let core = "v1-core"
    package static let search = "v2-search"
    package static let fileStamp = "v3-file-stamp"
    package static let chunks = "v4-chunks"
    package static let searchByRowid = "v5-search-index"

    /// Every migration, in the order they run.
    static let steps: [(identifier: String, migrate: @Sendable (Database) throws -> Void)] = [
        (core, createCoreTables),
        (search, createSearchIndex),
        (fileStamp, addFileStamp),
        (chunks, createChunkTables),
        (searchByRowid, keySearchIndexByRowid),
        (jobDueIndex, createJobDueIndex),
        (livePieces, addLivePieces),
        (journalFind, addCorrectionsAndVocabulary),
        (jobEndpoint, addJobEndpoint),
        (chunkSeams, addChunkSeams),
        (recordingPath, indexRecordingPath),
        (transcriptReview, addTranscriptReview),
        (languages, addLanguages),
        (translations, addTranslations),
        (searchScripts, addScriptSearchIndex),
        (translationSearch, indexTranslations),
        (reflections, createReflections),
        (reflectionJobs, createReflectionJobs),
        (askConversations, createAskConversations),
        (deliveries, createDeliveries),
        (nudges, createNudges),
    ]

    /// The migrator with every migration registered.
    package static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for step in steps { migrator.registerMigration(step.identifier, migrate: step.migrate) }
        return migrator
    }

    /// Brings a database's schema up to date with GRDB's migrator: every registered migration
    /// it lacks, in order, each in a transaction of its own. A new journal is made exactly as
    /// an older one is upgraded.
    ///
    /// Two processes may migrate the same journal at once (a new one, most likely), and the
    /// migrator reads which migrations are applied before running them: when a migration
    /// fails and the applied set has grown meanwhile (the other process ran it first), or
    /// could not be read while the other changed the schema, the migrator runs again from
    /// where the other one got to. An error with no such progress is thrown.
    package static func migrate(_ writer: some DatabaseWriter) throws {
        let migrator = migrator
        for attempt in 0... {
            let before = try? writer.writeWithoutTransaction(migrator.appliedIdentifiers)
            do {
                return try migrator.migrate(writer)
            } catch {
                let after = try? writer.writeWithoutTransaction(migrator.appliedIdentifiers)
                guard attempt < steps.count, before == nil || after != before else { throw error }
            }
        }
    }

    /// "Myself" always exists: the user answers their own questions too.
    private static func addMyself(_ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO person (name, relationship, createdAt) VALUES ('Myself', 'self', CURRENT_TIMESTAMP)")
    }

    private static func createCoreTables(_ db: Database) throws {
        try db.create(table: "person") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull().unique().collate(.nocase)
            t.column("relationship", .text).notNull()
            t.column("email", .text)
            t.column("createdAt", .datetime).notNull()
        }
        try addMyself(db)

        try db.create(table: "journal") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull().unique().collate(.nocase)
            t.column("description", .text)
            t.column("dedicatedToPersonId", .integer).references("person", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
        }

        try db.create(table: "question") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("journalId", .integer).notNull().indexed().references("journal", onDelete: .cascade)
            t.column("text", .text).notNull()
            t.column("displayOrder", .integer).notNull()
            t.column("createdAt", .datetime).notNull()
        }

        try db.create(table: "assignment") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("questionId", .integer).notNull().indexed().references("question", onDelete: .cascade)
            t.column("personId", .integer).notNull().indexed().references("person", onDelete: .cascade)
            t.column("status", .text).notNull()
                .check(sql: "status IN ('pending', 'sent', 'answered')")
            t.column("linkToken", .text).notNull().unique()
            t.column("sentAt", .datetime)
            t.column("answeredAt", .datetime)
            t.column("createdAt", .datetime).notNull()
        }

        try db.create(table: "entry") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("journalId", .integer).notNull().indexed().references("journal", onDelete: .cascade)
            t.column("kind", .text).notNull()
            t.column("title", .text)
            t.column("content", .text).notNull()
            t.column("mood", .text)
                .check(sql: "mood IS NULL OR mood IN ('happy','grateful','excited','neutral','sad','anxious','stressed','angry')")
            t.column("theme", .text)
                .check(sql: "theme IS NULL OR theme IN ('personal','work','relationships','family','health','goals','hobbies','school')")
            t.column("createdAt", .datetime).notNull().indexed()
        }

        try db.create(table: "recording") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("path", .text).notNull()
            // NULL while capturing; SQLite lets many rows share NULL under UNIQUE.
            t.column("sha256", .text).unique()
            t.column("durationSeconds", .double).notNull()
            t.column("sampleRate", .integer).notNull()
            t.column("channels", .integer).notNull()
            t.column("format", .text).notNull()
            t.column("sizeBytes", .integer).notNull()
            t.column("peakDBFS", .double)
            t.column("rmsDBFS", .double)
            t.column("state", .text).notNull().indexed()
                .check(sql: "state IN ('recording', 'complete')")
            t.column("entryId", .integer).indexed().references("entry", onDelete: .cascade)
            t.column("assignmentId", .integer).indexed().references("assignment", onDelete: .cascade)
            t.column("idempotencyKey", .text).unique()
            t.column("createdAt", .datetime).notNull()
        }

        try db.create(table: "transcript") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("recordingId", .integer).notNull().unique().references("recording", onDelete: .cascade)
            t.column("text", .text).notNull()
            t.column("language", .text)
            t.column("model", .text).notNull()
            t.column("segments", .text).notNull()
            t.column("createdAt", .datetime).notNull()
        }

        try db.create(table: "job") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("recordingId", .integer).notNull().references("recording", onDelete: .cascade)
            t.column("kind", .text).notNull()
            t.column("state", .text).notNull()
                .check(sql: "state IN ('queued', 'running', 'done', 'failed', 'cancelled')")
            t.column("priority", .integer).notNull()
            t.column("attempts", .integer).notNull()
            t.column("maxAttempts", .integer).notNull()
            t.column("runAfter", .datetime).notNull()
            t.column("leaseOwner", .text)
            t.column("leaseExpiresAt", .datetime)
            t.column("lastError", .text)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
            // Enqueueing the same recording twice finds the job already there.
            t.uniqueKey(["recordingId", "kind"])
        }
        try db.create(index: "job_claim", on: "job", columns: ["state", "priority", "runAfter"])
    }

    /// The modification time of a recording's file when it was hashed (with `sizeBytes`, its
    /// stamp): NULL for rows from before, whose files are hashed again before their upload.
    private static func addFileStamp(_ db: Database) throws {
        try db.alter(table: "recording") { t in
            t.add(column: "modifiedNanoseconds", .integer)
        }
    }

    /// A recording too long or in a format the API refuses is split into chunks, each a job
    /// of its own (a child of the recording's job): `chunked_job` marks a parent waiting for
    /// its chunks (never claimed while it waits), `job_chunk` holds each child's encoded
    /// file and, once it is transcribed, its result, so a crash never re-uploads a chunk
    /// that succeeded. Tables of their own rather than columns on `job`, so every existing
    /// query on `job` keeps its meaning.
    private static func createChunkTables(_ db: Database) throws {
        try db.create(table: "chunked_job") { t in
            t.primaryKey("jobId", .integer).references("job", onDelete: .cascade)
            t.column("chunkCount", .integer).notNull()
            t.column("durationSeconds", .double).notNull()
        }
        try db.create(table: "job_chunk") { t in
            t.primaryKey("jobId", .integer).references("job", onDelete: .cascade)
            t.column("parentJobId", .integer).notNull().indexed().references("job", onDelete: .cascade)
            t.column("chunkIndex", .integer).notNull()
            t.column("startSeconds", .double).notNull()
            t.column("path", .text).notNull()
            // The chunk's transcript as JSON (`ChunkResult`), NULL until it is transcribed.
            t.column("result", .text)
            t.uniqueKey(["parentJobId", "chunkIndex"])
        }
    }

    /// One FTS5 index over entry titles and text and transcript text, kept in sync by
    /// triggers so every writer (CLI, queue runner, another process) updates it.
    private static func createSearchIndex(_ db: Database) throws {
        try db.execute(sql: """
            CREATE VIRTUAL TABLE search_index USING fts5(
                ownerKind UNINDEXED, ownerId UNINDEXED, title, body,
                tokenize = 'porter unicode61 remove_diacritics 2');

            CREATE TRIGGER entry_search_insert AFTER INSERT ON entry BEGIN
                INSERT INTO search_index (ownerKind, ownerId, title, body)
                VALUES ('entry', new.id, coalesce(new.title, ''), new.content);
            END;
            CREATE TRIGGER entry_search_update AFTER UPDATE OF title, content ON entry BEGIN
                UPDATE search_index SET title = coalesce(new.title, ''), body = new.content
                WHERE ownerKind = 'entry' AND ownerId = new.id;
            END;
            CREATE TRIGGER entry_search_delete AFTER DELETE ON entry BEGIN
                DELETE FROM search_index WHERE ownerKind = 'entry' AND ownerId = old.id;
            END;

            CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcript BEGIN
                INSERT INTO search_index (ownerKind, ownerId, title, body)
                VALUES ('transcript', new.id, '', new.text);
            END;
            CREATE TRIGGER transcript_search_update AFTER UPDATE OF text ON transcript BEGIN
                UPDATE search_index SET body = new.text
                WHERE ownerKind = 'transcript' AND ownerId = new.id;
            END;
            CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcript BEGIN
                DELETE FROM search_index WHERE ownerKind = 'transcript' AND ownerId = old.id;
            END;

            INSERT INTO search_index (ownerKind, ownerId, title, body)
                SELECT 'entry', id, coalesce(title, ''), content FROM entry;
            INSERT INTO search_index (ownerKind, ownerId, title, body)
                SELECT 'transcript', id, '', text FROM transcript;
            """)
    }

    /// The search index again, each row keyed by its rowid: `2 × id` for an entry, `2 × id + 1`
    /// for a transcript. v2's triggers found a row by `ownerId`, an UNINDEXED column, so every
    /// update or delete of an entry or transcript scanned the whole index; a rowid is a direct
    /// lookup, and search joins a hit to its entry or transcript from the rowid alone.
    /// `ownerKind` and `ownerId` stay, for anyone reading the table. The rows are rebuilt from
    /// the entries and transcripts, in one table so bm25 keeps ranking them together.
    private static func keySearchIndexByRowid(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER entry_search_insert;
            DROP TRIGGER entry_search_update;
            DROP TRIGGER entry_search_delete;
            DROP TRIGGER transcript_search_insert;
            DROP TRIGGER transcript_search_update;
            DROP TRIGGER transcript_search_delete;
            DROP TABLE search_index;

            CREATE VIRTUAL TABLE search_index USING fts5(
                ownerKind UNINDEXED, ownerId UNINDEXED, title, body,
                tokenize = 'porter unicode61 remove_diacritics 2');

            CREATE TRIGGER entry_search_insert AFTER INSERT ON entry BEGIN
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2, 'entry', new.id, coalesce(new.title, ''), new.content);
            END;
            CREATE TRIGGER entry_search_update AFTER UPDATE OF id, title, content ON entry BEGIN
                DELETE FROM search_index WHERE rowid = old.id * 2;
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2, 'entry', new.id, coalesce(new.title, ''), new.content);
            END;
            CREATE TRIGGER entry_search_delete AFTER DELETE ON entry BEGIN
                DELETE FROM search_index WHERE rowid = old.id * 2;
            END;

            CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcript BEGIN
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2 + 1, 'transcript', new.id, '', new.text);
            END;
            CREATE TRIGGER transcript_search_update AFTER UPDATE OF id, text ON transcript BEGIN
                DELETE FROM search_index WHERE rowid = old.id * 2 + 1;
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2 + 1, 'transcript', new.id, '', new.text);
            END;
            CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcript BEGIN
                DELETE FROM search_index WHERE rowid = old.id * 2 + 1;
            END;

            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                SELECT id * 2, 'entry', id, coalesce(title, ''), content FROM entry;
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                SELECT id * 2 + 1, 'transcript', id, '', text FROM transcript;
            """)
    }
}
