import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// A hit's snippet and time cost what the hit shows, not the square of its matches: a
/// transcript of 100,000 words searched with a prefix that matches half of them took a
/// minute (FTS5's snippet() scored a window from each match by walking every match again).
@Suite(.onTestThreads) struct SearchLongTranscriptTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    /// A voice entry whose one transcript is `words`, in segments of 100 words, segment k
    /// starting at 30 k seconds.
    func addTranscript(_ words: [String]) throws {
        let segments: [Transcript.Segment] = stride(from: 0, to: words.count, by: 100).map { first in
            let start = Double(first / 100) * 30
            let text = words[first..<min(first + 100, words.count)].joined(separator: " ")
            return Transcript.Segment(start: start, end: start + 30, text: text)
        }
        let text = segments.map { $0.text }.joined(separator: " ")
        try store.pool.write { db in
            let journal = try JournalStore.journalForNewEntry(db, named: nil)
            var entry = Entry(journalId: journal.id!, kind: .voice, title: nil, content: "")
            try entry.insert(db)
            var recording = Recording(path: "/tmp/long.wav", sha256: "long", sampleRate: 16000, channels: 1, format: "wav",
                                      state: .complete, entryId: entry.id)
            try recording.insert(db)
            var transcript = Transcript(recordingId: recording.id!, text: text,
                                        model: "whisper-1", segments: segments)
            try transcript.insert(db)
        }
    }

    /// 250 words without a w, then "we walked with water and then the sea" over and over:
    /// 49,875 of the 100,000 words match `w*`. The search with snippet() took 53 s on it (and
    /// gave the same snippet and time); this one must answer well inside 15 s, with the
    /// snippet snippet() gives (the first window of seven matches) and the time of the
    /// segment holding the first matched word (the third, from 60 s).
    @Test func aHundredThousandWordTranscriptSearchedWithAPrefixAnswersWellWithinFifteenSeconds() throws {
        let opening: [String] = Array(Array(repeating: ["the", "sea", "and", "rain", "over", "harbour", "light", "on", "a", "boat"], count: 25).joined())
        let phrase = ["we", "walked", "with", "water", "and", "then", "the", "sea"]
        let rest: [String] = Array(Array(repeating: phrase, count: (100_000 - opening.count) / phrase.count).joined())
        try addTranscript(opening + rest)
        let clock = ContinuousClock()
        let started = clock.now
        let hits = try store.search("w*")
        let took = clock.now - started
        #expect(took < .seconds(15), "search took \(took)")
        #expect(hits.count == 1)
        #expect(hits.first?.snippet == "…[we] [walked] [with] [water] and then the sea [we] [walked] [with] [water]…")
        #expect(hits.first?.segmentStart == 60)
    }
}
