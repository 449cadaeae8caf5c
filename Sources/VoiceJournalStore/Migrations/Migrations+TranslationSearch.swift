import GRDB

extension Migrations {
    /// The search index holds a transcript's English translation after its text.
    package static let translationSearch = "v16-translation-search"

    /// A transcript's row of the search index (`2 × id + 1`) holds its text and, when it has
    /// one, a line break and its translation, so a word of either finds the recording; the row stays one per
    /// transcript, and bm25 ranks the two together. The text comes first: a match's offset
    /// past the text and the line break is a match in the translation (see `SearchRanking`).
    /// The transcript triggers are made again to write both and to follow a change of either;
    /// the rows of transcripts that have a translation are written again. Entries' rows and
    /// triggers, and the index's table and tokenizer, stay as they are.
    static func indexTranslations(_ db: Database) throws {
        try db.execute(sql: """
            DROP TRIGGER transcript_search_insert;
            DROP TRIGGER transcript_search_update;

            CREATE TRIGGER transcript_search_insert AFTER INSERT ON transcript BEGIN
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2 + 1, 'transcript', new.id, '', CASE WHEN new.translation IS NULL THEN new.text ELSE new.text || char(10) || new.translation END);
            END;
            CREATE TRIGGER transcript_search_update AFTER UPDATE OF id, text, translation ON transcript BEGIN
                DELETE FROM search_index WHERE rowid = old.id * 2 + 1;
                INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                VALUES (new.id * 2 + 1, 'transcript', new.id, '', CASE WHEN new.translation IS NULL THEN new.text ELSE new.text || char(10) || new.translation END);
            END;

            DELETE FROM search_index WHERE rowid IN (SELECT id * 2 + 1 FROM transcript WHERE translation IS NOT NULL);
            INSERT INTO search_index (rowid, ownerKind, ownerId, title, body)
                SELECT id * 2 + 1, 'transcript', id, '', text || char(10) || translation FROM transcript
                WHERE translation IS NOT NULL;
            """)
    }
}
