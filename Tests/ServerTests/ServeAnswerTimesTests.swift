import Foundation
import Testing
import VoiceJournalTestSupport

/// An answer uploaded through `serve --transcribe` goes the way every recording goes: only its
/// speech is sent, and the times stored are where the words are in the answer as recorded.
@Suite(.onTestThreads) struct ServeAnswerTimesTests {
    /// An answer (`PlacedSpeech`) uploaded to `serve --transcribe`, whose Whisper answers every
    /// upload with `behaviour`: the speech, its transcript's row (`segments`, `audioSentSeconds`)
    /// once stored, and the Whisper server.
    static func answered(_ behaviour: StubWhisperServer.Behaviour) throws -> (PlacedSpeech, [String: Any], StubWhisperServer) {
        let whisper = try StubWhisperServer(rules: [.init(responses: [], then: behaviour)])
        let serve = try ServeHarness(["--transcribe", "--jobs", "1"], environment: ["OPENAI_BASE_URL": whisper.baseURL])
        let speech = try PlacedSpeech.make(in: serve.folder.url, name: "answer.wav")
        let (id, token) = try serve.assignment()
        #expect(try serve.upload(token, speech.url, type: "audio/wav").status == 200)
        let recording = try #require(try serve.recordings(of: id).first?["id"] as? Int)
        var rows: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            rows = try CaptureDatabase.rows(home: serve.binary.home, "SELECT segments, audioSentSeconds FROM transcript WHERE recordingId = ?",
                                            ["\(recording)"])
            if !rows.isEmpty { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let output = serve.stop()
        return (speech, try #require(rows.first, "no transcript: \(output?.stderr ?? "")"), whisper)
    }

    @Test func anAnswersTranscriptIsOnTheAnswersOwnClock() throws {
        let (speech, row, whisper) = try Self.answered(.timed)
        let json = try #require((row["segments"] as? String)?.data(using: .utf8))
        let segments = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        #expect(segments.count == speech.stretches.count, "\(segments)")
        for (stretch, segment) in zip(speech.stretches, segments) {
            let start = segment["start"] as? Double ?? -1, end = segment["end"] as? Double ?? -1
            #expect(abs(start - stretch.lowerBound) <= 0.1 && abs(end - stretch.upperBound) <= 0.1, "\(start)–\(end) for \(stretch)")
            let words = (segment["words"] as? [[String: Any]]) ?? []
            #expect(!words.isEmpty)
            for word in words {
                let wordStart = word["start"] as? Double ?? -1, wordEnd = word["end"] as? Double ?? -1
                #expect(wordStart >= stretch.lowerBound - 0.1 && wordEnd <= stretch.upperBound + 0.1, "\(word) outside \(stretch)")
            }
        }
        let sent = try whisper.requests().compactMap { $0.file?.audioSeconds }.reduce(0, +)
        #expect(sent > 0 && sent < speech.seconds / 2, "\(sent) s sent of \(speech.seconds) s")
        #expect(abs((row["audioSentSeconds"] as? Double ?? -1) - sent) < 0.05)
    }

    @Test func anAnswerWhoseSegmentRunsAcrossItsPausesIsStoredAsOneSegmentPerUtterance() throws {
        let (speech, row, _) = try Self.answered(.across(words: .stretched))
        let json = try #require((row["segments"] as? String)?.data(using: .utf8))
        let segments = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: Any]])
        #expect(segments.count == speech.stretches.count, "\(segments)")
        for stretch in speech.stretches {
            #expect(segments.contains { abs(($0["start"] as? Double ?? -1) - stretch.lowerBound) <= 0.5 }, "none near \(stretch): \(segments)")
        }
        for word in segments.flatMap({ ($0["words"] as? [[String: Any]]) ?? [] }) {
            let length = (word["end"] as? Double ?? .infinity) - (word["start"] as? Double ?? 0)
            #expect(length <= 2, "\(word) is \(length) s long")
        }
    }
}
