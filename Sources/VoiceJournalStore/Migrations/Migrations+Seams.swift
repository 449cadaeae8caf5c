import GRDB

extension Migrations {
    /// Whether each chunk begins where its recording was cut through speech.
    package static let chunkSeams = "v10-chunk-seams"

    /// `job_chunk.startsInSpeech` says whether the cut before a chunk (or live piece) went
    /// through unbroken speech, where the word at the seam may be heard by both chunks and is
    /// dropped once when they are stitched; a cut in a pause keeps every word on both sides.
    /// NULL for chunks planned before it: they are stitched as they were then.
    static func addChunkSeams(_ db: Database) throws {
        try db.alter(table: "job_chunk") { t in
            t.add(column: "startsInSpeech", .boolean)
        }
    }
}
