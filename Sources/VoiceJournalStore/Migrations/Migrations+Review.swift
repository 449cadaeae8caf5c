import GRDB

extension Migrations {
    /// What a transcript leaves out and what it cost, and each chunk's upload clock.
    package static let transcriptReview = "v12-transcript-review"

    /// `transcript.unheard` (JSON: stretches of speech no words came back for),
    /// `transcript.leftOut` (JSON: answered text left out of the transcript, with why),
    /// `transcript.audioSentSeconds` (NULL for transcripts stored before it was counted) and
    /// `transcript.resends`; `job_chunk.timeMap` (JSON: which stretches of the recording the
    /// chunk's upload holds and where its speech is; NULL for chunks planned before it, whose
    /// upload is the recording's audio unshortened).
    static func addTranscriptReview(_ db: Database) throws {
        try db.alter(table: "transcript") { t in
            t.add(column: "unheard", .text).notNull().defaults(to: "[]")
            t.add(column: "leftOut", .text).notNull().defaults(to: "[]")
            t.add(column: "audioSentSeconds", .double)
            t.add(column: "resends", .integer).notNull().defaults(to: 0)
        }
        try db.alter(table: "job_chunk") { t in
            t.add(column: "timeMap", .text)
        }
    }
}
