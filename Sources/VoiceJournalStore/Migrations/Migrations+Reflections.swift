import GRDB

extension Migrations {
    /// Reflections: what a chat model said about an entry (or a week, a month), checked.
    package static let reflections = "v17-reflections"

    /// `reflection` keeps every reflection asked for (history: the latest is shown), valid or
    /// failed with its reasons, with what it cost. An entry's reflections go with the entry.
    static func createReflections(_ db: Database) throws {
        try db.create(table: "reflection") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("entryId", .integer).references("entry", onDelete: .cascade)
            t.column("periodKind", .text).notNull().check(sql: "periodKind IN ('entry', 'week', 'month')")
            t.column("periodStart", .datetime)
            t.column("periodEnd", .datetime)
            t.column("status", .text).notNull().check(sql: "status IN ('valid', 'failed')")
            // JSON: a list of sentences saying why it failed (empty when valid).
            t.column("reasons", .text).notNull()
            // JSON: the checked reflection's fields (NULL when it failed).
            t.column("fields", .text)
            t.column("model", .text).notNull()
            t.column("endpointHost", .text).notNull()
            t.column("promptVersion", .text).notNull()
            t.column("requests", .integer).notNull()
            t.column("inputTokens", .integer).notNull()
            t.column("outputTokens", .integer).notNull()
            t.column("seconds", .double).notNull()
            // Dollars; NULL when the endpoint's prices are not known.
            t.column("cost", .double)
            t.column("createdAt", .datetime).notNull()
        }
        try db.create(index: "reflection_entry", on: "reflection", columns: ["entryId", "createdAt"])
        try db.create(index: "reflection_period", on: "reflection", columns: ["periodKind", "periodStart", "createdAt"])
    }
}

extension Migrations {
    /// Reflections asked for automatically (`reflect = "auto"`, `record --reflect`): jobs of
    /// their own queue.
    package static let reflectionJobs = "v18-reflection-jobs"

    /// `reflection_job`: one per entry (asking twice finds the one there), claimed with a
    /// lease like a transcription job, due once the entry has words. A table of its own rather
    /// than a kind in `job`: every query of that queue is about a recording and its file.
    static func createReflectionJobs(_ db: Database) throws {
        try db.create(table: "reflection_job") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("entryId", .integer).notNull().unique().references("entry", onDelete: .cascade)
            t.column("state", .text).notNull().check(sql: "state IN ('queued', 'running', 'done', 'failed', 'cancelled')")
            t.column("attempts", .integer).notNull()
            t.column("maxAttempts", .integer).notNull()
            t.column("runAfter", .datetime).notNull()
            t.column("leaseOwner", .text)
            t.column("leaseExpiresAt", .datetime)
            t.column("lastError", .text)
            // The server the running job was claimed for, shown by `queue status`.
            t.column("endpoint", .text)
            t.column("reflectionId", .integer).references("reflection", onDelete: .setNull)
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(index: "reflection_job_due", on: "reflection_job", columns: ["state", "runAfter"])
    }
}

extension Migrations {
    /// Conversations with the journal (`ask`).
    package static let askConversations = "v19-ask"

    /// `ask_conversation` and its turns. A turn keeps which passages were sent (entry ids
    /// and times, not their words: deleting an entry leaves no copy of it here), the answer
    /// as checked, its citations and what it cost.
    static func createAskConversations(_ db: Database) throws {
        try db.create(table: "ask_conversation") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("title", .text).notNull()
            t.column("createdAt", .datetime).notNull()
            t.column("updatedAt", .datetime).notNull()
        }
        try db.create(table: "ask_turn") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("conversationId", .integer).notNull().indexed().references("ask_conversation", onDelete: .cascade)
            t.column("question", .text).notNull()
            // The period the question named, as read ("last week"), and its bounds.
            t.column("rangeText", .text)
            t.column("rangeStart", .datetime)
            t.column("rangeEnd", .datetime)
            // JSON: the passages sent, by entry and time ([{"number", "entryId", "start", "end"}]).
            t.column("passages", .text).notNull()
            // JSON: the facts counted by SQL and sent.
            t.column("facts", .text).notNull()
            t.column("answer", .text).notNull()
            // JSON: the passage numbers cited that were sent; and those taken out.
            t.column("cited", .text).notNull()
            t.column("removed", .text).notNull()
            // Why the answer stopped before it was whole; NULL when it is.
            t.column("incomplete", .text)
            t.column("model", .text).notNull()
            t.column("endpointHost", .text).notNull()
            t.column("promptVersion", .text).notNull()
            t.column("inputTokens", .integer).notNull()
            t.column("outputTokens", .integer).notNull()
            t.column("seconds", .double).notNull()
            t.column("firstTextSeconds", .double)
            t.column("cost", .double)
            t.column("createdAt", .datetime).notNull()
        }
        // Embeddings of entries' passages (runs of sentences), made once per entry, model and
        // text (`textHash`: an entry corrected since is embedded again), for `ask` to rank by
        // meaning beside FTS5. `vector` is little-endian Float32s.
        try db.create(table: "passage_vector") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("entryId", .integer).notNull().references("entry", onDelete: .cascade)
            t.column("model", .text).notNull()
            t.column("chunk", .integer).notNull()
            t.column("firstSentence", .integer).notNull()
            t.column("lastSentence", .integer).notNull()
            t.column("textHash", .text).notNull()
            t.column("vector", .blob).notNull()
            t.uniqueKey(["entryId", "model", "chunk"])
        }
        // What valid reflections on entries say (summary, insight, themes, questions), searched
        // by `ask` beside the entries themselves; rowid = the reflection's id. Reflections are
        // history, never changed: kept in step by insert and delete alone.
        try db.execute(sql: """
            CREATE VIRTUAL TABLE reflection_index USING fts5(text, tokenize = 'porter unicode61 remove_diacritics 2');
            CREATE TRIGGER reflection_index_insert AFTER INSERT ON reflection
            WHEN new.status = 'valid' AND new.entryId IS NOT NULL AND json_valid(new.fields) BEGIN
                INSERT INTO reflection_index (rowid, text) VALUES (new.id,
                    coalesce(new.fields ->> '$.summary', '') || ' ' || coalesce(new.fields ->> '$.insight', '') || ' '
                    || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.fields, '$.themes')), '') || ' '
                    || coalesce((SELECT group_concat(value, ' ') FROM json_each(new.fields, '$.questions')), ''));
            END;
            CREATE TRIGGER reflection_index_delete AFTER DELETE ON reflection BEGIN
                DELETE FROM reflection_index WHERE rowid = old.id;
            END;
            """)
    }
}
