import GRDB

extension Migrations {
    /// The schema every migration up to `snapshotThrough` makes, as SQLite stores it: what a
    /// new journal is created from in one go (3 ms, where running those migrations takes 10).
    /// Written out from a journal the migrations made; `MigrationTests` holds the two equal,
    /// so a new migration is added to `steps` and runs after this on a new journal too (the
    /// snapshot is brought up to date when convenient, never edited by hand).
    static let snapshotThrough = jobEndpoint

    /// The `CREATE` statements, in the order SQLite stores them (tables before their indexes
    /// and triggers); FTS5 makes its own shadow tables.
    static let snapshot: [String] = [
        #"""
        CREATE TABLE "person" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE COLLATE NOCASE, "relationship" TEXT NOT NULL, "email" TEXT, "createdAt" DATETIME NOT NULL)
        """#,
        #"""
        CREATE TABLE "journal" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE COLLATE NOCASE, "description" TEXT, "dedicatedToPersonId" INTEGER REFERENCES "person"("id") ON DELETE SET NULL, "createdAt" DATETIME NOT NULL)
        """#,
        #"""
        CREATE TABLE "question" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "journalId" INTEGER NOT NULL REFERENCES "journal"("id") ON DELETE CASCADE, "text" TEXT NOT NULL, "displayOrder" INTEGER NOT NULL, "createdAt" DATETIME NOT NULL)
        """#,
        #"""
        CREATE INDEX "question_on_journalId" ON "question"("journalId")
        """#,
        #"""
        CREATE TABLE "assignment" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "questionId" INTEGER NOT NULL REFERENCES "question"("id") ON DELETE CASCADE, "personId" INTEGER NOT NULL REFERENCES "person"("id") ON DELETE CASCADE, "status" TEXT NOT NULL CHECK (status IN ('pending', 'sent', 'answered')), "linkToken" TEXT NOT NULL UNIQUE, "sentAt" DATETIME, "answeredAt" DATETIME, "createdAt" DATETIME NOT NULL)
        """#,
        #"""
        CREATE INDEX "assignment_on_questionId" ON "assignment"("questionId")
        """#,
        #"""
        CREATE INDEX "assignment_on_personId" ON "assignment"("personId")
        """#,
        #"""
        CREATE TABLE "entry" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "journalId" INTEGER NOT NULL REFERENCES "journal"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "title" TEXT, "content" TEXT NOT NULL, "mood" TEXT CHECK (mood IS NULL OR mood IN ('happy','grateful','excited','neutral','sad','anxious','stressed','angry')), "theme" TEXT CHECK (theme IS NULL OR theme IN ('personal','work','relationships','family','health','goals','hobbies','school')), "createdAt" DATETIME NOT NULL, "originalContent" TEXT, "correctedAt" DATETIME)
        """#,
        #"""
        CREATE INDEX "entry_on_journalId" ON "entry"("journalId")
        """#,
        #"""
        CREATE INDEX "entry_on_createdAt" ON "entry"("createdAt")
        """#,
        #"""
        CREATE TABLE "recording" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "path" TEXT NOT NULL, "sha256" TEXT UNIQUE, "durationSeconds" DOUBLE NOT NULL, "sampleRate" INTEGER NOT NULL, "channels" INTEGER NOT NULL, "format" TEXT NOT NULL, "sizeBytes" INTEGER NOT NULL, "peakDBFS" DOUBLE, "rmsDBFS" DOUBLE, "state" TEXT NOT NULL CHECK (state IN ('recording', 'complete')), "entryId" INTEGER REFERENCES "entry"("id") ON DELETE CASCADE, "assignmentId" INTEGER REFERENCES "assignment"("id") ON DELETE CASCADE, "idempotencyKey" TEXT UNIQUE, "createdAt" DATETIME NOT NULL, "modifiedNanoseconds" INTEGER)
        """#,
        #"""
        CREATE INDEX "recording_on_state" ON "recording"("state")
        """#,
        #"""
        CREATE INDEX "recording_on_entryId" ON "recording"("entryId")
        """#,
        #"""
        CREATE INDEX "recording_on_assignmentId" ON "recording"("assignmentId")
        """#,
        #"""
        CREATE TABLE "transcript" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "recordingId" INTEGER NOT NULL UNIQUE REFERENCES "recording"("id") ON DELETE CASCADE, "text" TEXT NOT NULL, "language" TEXT, "model" TEXT NOT NULL, "segments" TEXT NOT NULL, "createdAt" DATETIME NOT NULL, "originalText" TEXT, "originalSegments" TEXT, "correctedAt" DATETIME)
        """#,
        #"""
        CREATE TABLE "job" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "recordingId" INTEGER NOT NULL REFERENCES "recording"("id") ON DELETE CASCADE, "kind" TEXT NOT NULL, "state" TEXT NOT NULL CHECK (state IN ('queued', 'running', 'done', 'failed', 'cancelled')), "priority" INTEGER NOT NULL, "attempts" INTEGER NOT NULL, "maxAttempts" INTEGER NOT NULL, "runAfter" DATETIME NOT NULL, "leaseOwner" TEXT, "leaseExpiresAt" DATETIME, "lastError" TEXT, "createdAt" DATETIME NOT NULL, "updatedAt" DATETIME NOT NULL, "endpoint" TEXT, UNIQUE ("recordingId", "kind"))
        """#,
        #"""
        CREATE INDEX "job_claim" ON "job"("state", "priority", "runAfter")
        """#,
        #"""
        CREATE TABLE "chunked_job" ("jobId" INTEGER PRIMARY KEY REFERENCES "job"("id") ON DELETE CASCADE, "chunkCount" INTEGER NOT NULL, "durationSeconds" DOUBLE NOT NULL, "open" BOOLEAN NOT NULL DEFAULT 0)
        """#,
        #"""
        CREATE TABLE "job_chunk" ("jobId" INTEGER PRIMARY KEY REFERENCES "job"("id") ON DELETE CASCADE, "parentJobId" INTEGER NOT NULL REFERENCES "job"("id") ON DELETE CASCADE, "chunkIndex" INTEGER NOT NULL, "startSeconds" DOUBLE NOT NULL, "path" TEXT NOT NULL, "result" TEXT, "endSeconds" DOUBLE, UNIQUE ("parentJobId", "chunkIndex"))
        """#,
        #"""
        CREATE INDEX "job_chunk_on_parentJobId" ON "job_chunk"("parentJobId")
        """#,
        #"""
        CREATE VIRTUAL TABLE search_index USING fts5(
            ownerKind UNINDEXED, ownerId UNINDEXED, title, body,
            tokenize = 'porter unicode61 remove_diacritics 2')
        """#,
        #"""
        CREATE TRIGGER entry_search_insert AFTER INSERT ON entry BEGIN
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
            VALUES (new.id * 2, 'entry', new.id, coalesce(new.title, ''), new.content);
        END
        """#,
        #"""
        CREATE TRIGGER entry_search_update AFTER UPDATE OF id, title, content ON entry BEGIN
            DELETE FROM search_index WHERE rowid = old.id * 2;
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
            VALUES (new.id * 2, 'entry', new.id, coalesce(new.title, ''), new.content);
        END
        """#,
        #"""
        CREATE TRIGGER entry_search_delete AFTER DELETE ON entry BEGIN
            DELETE FROM search_index WHERE rowid = old.id * 2;
        END
        """#,
        #"""
        CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcript BEGIN
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
            VALUES (new.id * 2 + 1, 'transcript', new.id, '', new.text);
        END
        """#,
        #"""
        CREATE TRIGGER transcript_search_update AFTER UPDATE OF id, text ON transcript BEGIN
            DELETE FROM search_index WHERE rowid = old.id * 2 + 1;
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
            VALUES (new.id * 2 + 1, 'transcript', new.id, '', new.text);
        END
        """#,
        #"""
        CREATE TRIGGER transcript_search_delete AFTER DELETE ON transcript BEGIN
            DELETE FROM search_index WHERE rowid = old.id * 2 + 1;
        END
        """#,
        #"""
        CREATE INDEX job_due ON job (state, priority DESC, runAfter, id)
        """#,
        #"""
        CREATE TABLE "vocabulary" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "journalId" INTEGER NOT NULL REFERENCES "journal"("id") ON DELETE CASCADE, "word" TEXT NOT NULL COLLATE NOCASE, "createdAt" DATETIME NOT NULL, UNIQUE ("journalId", "word"))
        """#,
    ]
}
