import Foundation
import GRDB

/// What an entry said before it was first corrected.
package struct EntryOriginal: Codable, Sendable, Equatable {
    /// The typed text, or the transcript's text, as first stored.
    package var text: String
    /// The transcript's segments as first stored (empty for typed text).
    package var segments: [Transcript.Segment]
    package var correctedAt: Date
}

/// What a correction changed.
package struct EntryCorrection: Sendable, Equatable {
    /// What was corrected: the entry's typed text or its recording's transcript.
    package enum Part: String, Sendable {
        case text, transcript
    }
    package var part: Part
    /// False when the new text was the same as the old: nothing was written.
    package var changed: Bool
}

extension JournalStore {
    /// What `entry edit` opens: the entry's typed text, else its transcript — for a transcript
    /// with segments one segment a line, so a correction keeps each line at its time.
    package func correctableText(ofEntry id: Int64) throws -> (part: EntryCorrection.Part, text: String) {
        try pool.read { db in try Self.correctableText(db, ofEntry: id) }
    }

    /// The same, inside a caller's transaction.
    static func correctableText(_ db: Database, ofEntry id: Int64) throws -> (part: EntryCorrection.Part, text: String) {
        let entry = try existingEntry(db, id: id)
        if !entry.content.isEmpty { return (.text, entry.content) }
        guard let transcript = try latestTranscript(db, entryId: id) else {
            throw StoreError.invalidInput("entry #\(id) has no text or transcript to correct yet")
        }
        let lines = transcript.segments.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
        return (.transcript, lines.isEmpty ? transcript.text : lines.joined(separator: "\n"))
    }

    /// Replaces the entry's typed text, or its transcript, with `text`; the search index
    /// follows by trigger. The first correction keeps the original. A transcript's segments
    /// follow the words: one line per segment when the line count is unchanged, else each
    /// kept word stays at its time (`TranscriptTimeline.realigned`); a segment keeps the
    /// model's confidence and word times only where its words survive
    /// (`TranscriptTimeline.corrected`). What was left out and went unheard stays as it was:
    /// a correction changes the words, not what the audio held.
    @discardableResult
    package func correctEntry(id: Int64, text: String, now: Date = Date()) throws -> EntryCorrection {
        let text = try Self.correction(text, ofEntry: id)
        return try pool.write { db in try Self.correctEntry(db, id: id, text: text, now: now) }
    }

    /// `entry edit`: replaces the entry's typed text, or its transcript, with `text`, or
    /// without it with what `edit` makes of the current one (see `correctableText`,
    /// `correctEntry(id:text:now:)`). The database is read and written on GRDB's own queues.
    package func correctEntry(id: Int64, text: String?, now: Date,
                             edit: (String) async throws -> String) async throws -> EntryCorrection {
        let current = try await pool.read { db in try Self.correctableText(db, ofEntry: id) }
        let edited: String
        if let text { edited = text } else { edited = try await edit(current.text) }
        let checked = try Self.correction(edited, ofEntry: id)
        return try await pool.write { db in try Self.correctEntry(db, id: id, text: checked, now: now) }
    }

    /// `text` trimmed, refused when nothing is left.
    static func correction(_ text: String, ofEntry id: Int64) throws -> String {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else {
            throw StoreError.invalidInput("the correction is empty; entry #\(id) is unchanged (delete it with: voicejournal entry delete \(id))")
        }
        return text
    }

    /// Writes a trimmed, non-empty correction inside a caller's transaction.
    static func correctEntry(_ db: Database, id: Int64, text: String, now: Date) throws -> EntryCorrection {
        let entry = try Self.existingEntry(db, id: id)
        if !entry.content.isEmpty {
            guard entry.content != text else { return EntryCorrection(part: .text, changed: false) }
            try db.execute(sql: """
                UPDATE entry SET originalContent = coalesce(originalContent, content), content = ?, correctedAt = ?
                WHERE id = ?
                """, arguments: [text, now, id])
            return EntryCorrection(part: .text, changed: true)
        }
        guard let transcript = try Self.latestTranscript(db, entryId: id), let transcriptId = transcript.id else {
            throw StoreError.invalidInput("entry #\(id) has no text or transcript to correct yet")
        }
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
        let segments: [Transcript.Segment]
        if lines.count == transcript.segments.count {
            segments = zip(transcript.segments, lines).map { TranscriptTimeline.corrected($0, to: " " + $1) }
        } else {
            segments = TranscriptTimeline.realigned(transcript.segments, to: text)
        }
        let joined = lines.joined(separator: " ")
        guard joined != transcript.text else { return EntryCorrection(part: .transcript, changed: false) }
        try db.execute(sql: """
            UPDATE transcript SET originalText = coalesce(originalText, text),
                                  originalSegments = coalesce(originalSegments, segments),
                                  text = ?, segments = ?, correctedAt = ?
            WHERE id = ?
            """, arguments: [joined, Transcript.Segment.json(segments), now, transcriptId])
        return EntryCorrection(part: .transcript, changed: true)
    }

    /// What the entry said before its first correction; nil when it was never corrected.
    package func original(ofEntry id: Int64) throws -> EntryOriginal? {
        try pool.read { db in
            let entry = try Self.existingEntry(db, id: id)
            if let row = try Row.fetchOne(db, sql: "SELECT originalContent, correctedAt FROM entry WHERE id = ? AND originalContent IS NOT NULL",
                                          arguments: [entry.id]) {
                return EntryOriginal(text: try row.decode(forColumn: "originalContent"), segments: [],
                                     correctedAt: try row.decode(forColumn: "correctedAt"))
            }
            guard let row = try Row.fetchOne(db, sql: """
                SELECT t.originalText, t.originalSegments, t.correctedAt FROM transcript t
                WHERE t.recordingId = (SELECT max(id) FROM recording WHERE entryId = ?) AND t.originalText IS NOT NULL
                """, arguments: [id]) else { return nil }
            let json = try row.decode(String?.self, forColumn: "originalSegments") ?? "[]"
            let segments = try JSONDecoder().decode([Transcript.Segment].self, from: Data(json.utf8))
            return EntryOriginal(text: try row.decode(forColumn: "originalText"), segments: segments,
                                 correctedAt: try row.decode(forColumn: "correctedAt"))
        }
    }

    static func existingEntry(_ db: Database, id: Int64) throws -> Entry {
        guard let entry = try Entry.fetchOne(db, key: id) else {
            throw StoreError.notFound("no entry #\(id); see: voicejournal entry list")
        }
        return entry
    }

    /// The transcript of the entry's latest recording (the one listings show).
    static func latestTranscript(_ db: Database, entryId: Int64) throws -> Transcript? {
        try Transcript.fetchOne(db, sql: """
            SELECT * FROM transcript WHERE recordingId = (SELECT max(id) FROM recording WHERE entryId = ?)
            """, arguments: [entryId])
    }
}
