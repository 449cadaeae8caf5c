import Foundation
import GRDB
import Testing
@testable import VoiceJournalQueue
@testable import VoiceJournalStore

/// A long recording's translation from its chunks': stitched onto the recording's clock, an
/// English chunk standing in with its own words, a missing one's note kept and named.
@Suite struct ChunkTranslationTests {
    static func chunk(_ index: Int, start: Double, _ result: ChunkResult) throws -> JobChunk {
        let json = String(decoding: try JSONEncoder().encode(result), as: UTF8.self)
        return try JobChunk(row: Row(["jobId": Int64(10 + index), "parentJobId": Int64(1), "chunkIndex": index,
                                      "startSeconds": start, "endSeconds": start + 10, "startsInSpeech": false,
                                      "path": "/tmp/c\(index).flac", "result": json]))
    }

    static func german(_ words: String, translation: String?, note: String? = nil) -> ChunkResult {
        ChunkResult(text: words, language: "de", model: "base", segments: [.init(start: 1, end: 3, text: " " + words)],
                    translation: translation, translationSegments: translation.map { [.init(start: 1.5, end: 3, text: " " + $0)] },
                    translationNote: note)
    }

    @Test func chunkTranslationsAreStitchedOnTheRecordingsClock() throws {
        let chunks = [
            try Self.chunk(0, start: 0, Self.german("Das Fahrrad.", translation: "The bike.")),
            try Self.chunk(1, start: 10, ChunkResult(text: "I was cold.", language: "en", model: "base",
                                                     segments: [.init(start: 2, end: 4, text: " I was cold.")])),
            try Self.chunk(2, start: 20, Self.german("Wir fuhren heim.", translation: "We rode home.")),
        ]
        let transcript = Transcript.assembled(chunks, recordingId: 1, durationSeconds: 30)
        #expect(transcript.text == "Das Fahrrad. I was cold. Wir fuhren heim.")
        #expect(transcript.translation == "The bike. I was cold. We rode home.")
        #expect(transcript.translationSegments.map(\.start) == [1.5, 12, 21.5])
        #expect(transcript.translationNote == nil)
    }

    @Test func aChunkWithoutItsTranslationIsNamedInTheNote() throws {
        let chunks = [
            try Self.chunk(0, start: 0, Self.german("Das Fahrrad.", translation: "The bike.")),
            try Self.chunk(1, start: 10, Self.german("Es war kalt.", translation: nil, note: "the translation failed: HTTP 500")),
        ]
        let partial = Transcript.assembled(chunks, recordingId: 1, durationSeconds: 20)
        #expect(partial.translation == "The bike." && partial.translationNote == "chunk 2: the translation failed: HTTP 500")
        // None translated: no translation, the note as it is.
        let none = Transcript.assembled([try Self.chunk(0, start: 0, Self.german("Hallo.", translation: nil, note: "the server cannot translate"))],
                                        recordingId: 1, durationSeconds: 10)
        #expect(none.translation == nil && none.translationSegments.isEmpty && none.translationNote == "the server cannot translate")
        // None asked: nothing.
        let notAsked = Transcript.assembled([try Self.chunk(0, start: 0, Self.german("Hallo.", translation: nil))], recordingId: 1, durationSeconds: 10)
        #expect(notAsked.translation == nil && notAsked.translationNote == nil)
    }
}
