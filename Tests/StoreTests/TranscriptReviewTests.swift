import Foundation
import GRDB
import VoiceJournalPages
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// The review's part of a transcript (confidence and words, unheard stretches, left-out
/// text, audio sent, re-sends) as every reader meets it: stats, corrections, the pages'
/// text, and an import that takes it as untrusted data.
@Suite(.onTestThreads) struct TranscriptReviewTests {
    /// Batch files of `durations` seconds in Personal, each transcribed through the queue with `make(index)`.
    static func transcribed(_ store: JournalStore, durations: [Double], _ make: (Int, Int64) -> Transcript) throws {
        _ = try store.queue.addBatchFiles(durations.enumerated().map { index, seconds in
            Recording(path: "/music/take-\(index).wav", sha256: String(repeating: "\(index)", count: 64), durationSeconds: seconds,
                      sampleRate: 16000, channels: 1, format: "wav", state: .complete)
        }, journalName: "Personal")
        for index in durations.indices {
            let job = try #require(try store.queue.claimNextJob(owner: "host:1:abc", lease: 60))
            #expect(try store.queue.completeJob(id: try #require(job.id), owner: "host:1:abc", transcript: make(index, job.recordingId)))
        }
    }

    @Test func statsSumAudioSentAndLeftOutOverTheTranscriptsThatCountedIt() throws {
        let journal = try TemporaryJournal()
        // 100 s sent 40 (60 left out); 30 s sent 45 after re-sends (0 left out, never below);
        // 50 s stored before sending was counted: in neither sum.
        let sent: [Double?] = [40, 45, nil]
        try Self.transcribed(journal.store, durations: [100, 30, 50]) { index, recording in
            Transcript(recordingId: recording, text: "take \(index)", model: "whisper-1", audioSentSeconds: sent[index],
                       resends: [0, 2, 1][index])
        }
        let stats = try journal.store.stats()
        #expect(stats.audioSentSeconds == 85)
        #expect(stats.audioLeftOutSeconds == 60)
        #expect(stats.resends == 3)
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(stats)) as? [String: Any])
        #expect(json["audioSentSeconds"] as? Double == 85 && json["audioLeftOutSeconds"] as? Double == 60 && json["resends"] as? Int == 3)
        #expect(stats.lines(now: Date(), charset: .ascii).contains("Audio sent:     85.0 s (60.0 s of pauses and silence left out; 3 re-sends)"))
        #expect(try journal.store.stats(journal: "Personal").audioSentSeconds == 85)
    }

    @Test func statsSayNothingOfAudioSentBeforeAnyWasCounted() throws {
        let journal = try TemporaryJournal()
        try Self.transcribed(journal.store, durations: [10]) { _, recording in
            Transcript(recordingId: recording, text: "old", model: "whisper-1")
        }
        let stats = try journal.store.stats()
        #expect(stats.audioSentSeconds == 0 && stats.audioLeftOutSeconds == 0)
        #expect(!stats.lines(now: Date(), charset: .ascii).contains { $0.hasPrefix("Audio sent") })
    }

    @Test func aCorrectionKeepsConfidenceAndWordTimesOnlyWhereTheWordsSurvive() throws {
        let words: [Transcript.Word] = [.init(start: 1, end: 1.4, word: " I"), .init(start: 1.4, end: 1.9, word: " met"),
                                        .init(start: 1.9, end: 2.6, word: " Jon"), .init(start: 2.6, end: 3, word: " today.")]
        let segment = Transcript.Segment(start: 1, end: 3, text: " I met Jon today.", avgLogprob: -1.2, noSpeechProb: 0.1, words: words)
        // Spacing, case and punctuation aside, the same words: everything kept.
        let same = TranscriptTimeline.corrected(segment, to: " i met Jon today")
        #expect(same.avgLogprob == -1.2 && same.noSpeechProb == 0.1 && same.words == words && same.isLowConfidence)
        // A misheard name put right: the user's words now; the name takes the time of the one it replaces.
        let fixed = TranscriptTimeline.corrected(segment, to: " I met John today. Really")
        #expect(fixed.avgLogprob == nil && fixed.noSpeechProb == nil && !fixed.isLowConfidence)
        #expect(fixed.words == [.init(start: 1, end: 1.4, word: " I"), .init(start: 1.4, end: 1.9, word: " met"),
                                .init(start: 1.9, end: 2.6, word: " John"), .init(start: 2.6, end: 3, word: " today.")],
                "the added word has no time and is not listed")
        #expect(TranscriptTimeline.corrected(segment, to: " Something else entirely said here").words?.count == 4)
        #expect(TranscriptTimeline.corrected(segment, to: " Nope").words?.map(\.word) == [" Nope"])
        #expect(TranscriptTimeline.corrected(Transcript.Segment(start: 0, end: 1, text: " a", avgLogprob: -2), to: " b").words == nil)
    }

    @Test func correctingAnEntryKeepsTheUntouchedSegmentsReviewAndTheTranscriptsAudit() throws {
        let journal = try TemporaryJournal()
        try Self.transcribed(journal.store, durations: [10]) { _, recording in
            Transcript(recordingId: recording, text: "I met Jon today. It rained.", model: "whisper-1", segments: [
                .init(start: 0, end: 2, text: " I met Jon today.", avgLogprob: -1.5,
                      words: [.init(start: 0, end: 0.3, word: " I"), .init(start: 0.3, end: 0.9, word: " met"),
                              .init(start: 0.9, end: 1.4, word: " Jon"), .init(start: 1.4, end: 2, word: " today.")]),
                .init(start: 4, end: 6, text: " It rained.", avgLogprob: -1.1, noSpeechProb: 0.3)],
                       unheard: [.init(start: 2.5, end: 3.75)], leftOut: [.init(start: 7, end: 8, text: "you", reason: "no-speech")],
                       audioSentSeconds: 9.5, resends: 1)
        }
        try journal.store.correctEntry(id: 1, text: "I met John today.\nIt rained.")
        let transcript = try #require(try journal.store.transcript(recordingId: 1))
        #expect(transcript.text == "I met John today. It rained.")
        #expect(transcript.segments[0].avgLogprob == nil && transcript.segments[0].words?[2] == .init(start: 0.9, end: 1.4, word: " John"))
        #expect(transcript.segments[1].avgLogprob == -1.1 && transcript.segments[1].isLowConfidence, "untouched: still the model's")
        #expect(transcript.unheard == [.init(start: 2.5, end: 3.75)] && transcript.leftOut.count == 1)
        #expect(transcript.audioSentSeconds == 9.5 && transcript.resends == 1)
        #expect(try journal.store.original(ofEntry: 1)?.segments.first?.avgLogprob == -1.5, "the original keeps the model's confidence")
    }

    @Test func unheardStretchesGoWhereTheyAreInTimeWhateverTheTextHolds() {
        let segments: [Transcript.Segment] = [.init(start: 3, end: 4, text: " One."), .init(start: 9, end: 10, text: " Two.")]
        let before = Transcript.Gap(start: 0.5, end: 2.2), between = Transcript.Gap(start: 5, end: 7), after = Transcript.Gap(start: 3700, end: 3702.5)
        #expect(TranscriptReading.text("One. Two.", segments: segments, unheard: [after, between, before])
                == "[unheard 00:00–00:03] One. [unheard 00:05–00:07] Two. [unheard 1:01:40–1:01:43]")
        #expect(TranscriptReading.text("One. Two.", segments: segments, unheard: []) == "One. Two.", "nothing unheard: the text as stored")
        #expect(TranscriptReading.text("Just text.", segments: [], unheard: [between, before])
                == "Just text. [unheard 00:00–00:03] [unheard 00:05–00:07]", "no segments: at the end, in time order")
        #expect(TranscriptReading.text("", segments: [], unheard: [between]) == "[unheard 00:05–00:07]")
        let lines = TranscriptReading.lines(Transcript(recordingId: 1, text: "One. Two.", model: "m", segments: [
            segments[0], .init(start: 9, end: 10, text: " Two.", avgLogprob: -1.01)], unheard: [after, between]))
        #expect(lines == "[00:03] One.\n[unheard 00:05–00:07]\n[00:09] Two. (?)\n[unheard 1:01:40–1:01:43]")
        #expect(TranscriptReading.lines(Transcript(recordingId: 1, text: "Plain.", model: "m", unheard: [between]))
                == "Plain.\n[unheard 00:05–00:07]")
    }
}
