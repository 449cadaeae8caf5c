import Foundation
import Testing
import VoiceJournalTestSupport

/// Times you can jump to: a server that answers one segment across every shortened pause
/// (with words, without, and with each utterance's first word stretched over the cut) still
/// leaves one stored segment per utterance starting where it is spoken, no word stretched over
/// a pause, and search hits, sidecar cues and `entry show` pointing at the utterance.
@Suite(.onTestThreads) struct TimesAtPausesTests {
    typealias Stored = TrustedWordsTests.StoredSegment

    /// Every utterance has a stored segment starting within 0.5 s of it; no segment and no word
    /// runs from one utterance over the pause into the next; no word is longer than 2 s.
    static func expectSegmentPerUtterance(_ segments: [Stored], _ speech: PlacedSpeech, words: Bool,
                                          sourceLocation: SourceLocation = #_sourceLocation) {
        let described = segments.map { ($0.start, $0.end, $0.text) }
        for stretch in speech.stretches {
            #expect(segments.contains { abs($0.start - stretch.lowerBound) <= 0.5 },
                    "no segment starts near \(stretch): \(described)", sourceLocation: sourceLocation)
        }
        for (stretch, next) in zip(speech.stretches, speech.stretches.dropFirst()) {
            #expect(!segments.contains { $0.start < stretch.upperBound && $0.end > next.lowerBound },
                    "a segment spans the pause \(stretch.upperBound)–\(next.lowerBound): \(described)", sourceLocation: sourceLocation)
        }
        let stored = segments.flatMap(\.words)
        #expect(words ? !stored.isEmpty : stored.isEmpty, "\(stored.count) words stored", sourceLocation: sourceLocation)
        for word in stored {
            #expect(word.end - word.start <= 2, "word \(word) is \(word.end - word.start) s long", sourceLocation: sourceLocation)
            #expect(speech.stretches.contains { word.start >= $0.lowerBound - 0.4 && word.end <= $0.upperBound + 0.4 },
                    "word \(word) lies outside the speech", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [StubWhisperServer.Behaviour.AcrossWords.spread, .stretched, .none])
    func aSegmentAcrossEveryShortenedPauseIsStoredAsOnePerUtterance(_ words: StubWhisperServer.Behaviour.AcrossWords) throws {
        let (harness, speech) = try TrustedWordsTests.setUp(.across(words: words))
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days", "--sidecar", "srt,vtt"])
        let requests = try harness.server.requests()
        #expect(requests.count == 1 && requests.first?.regions?.count == speech.stretches.count, "\(requests.map(\.regions))")

        let (id, transcript) = try TrustedWordsTests.storedTranscript(harness, speech.url)
        let segments = TrustedWordsTests.segments(transcript)
        Self.expectSegmentPerUtterance(segments, speech, words: words != .none)
        #expect(segments.count == speech.stretches.count, "\(segments.map { ($0.start, $0.end, $0.text) })")
        // Each part keeps its own words: region two's words are in the segment at region two.
        for (index, stretch) in speech.stretches.enumerated() {
            let segment = segments.first { abs($0.start - stretch.lowerBound) <= 0.5 }
            #expect(segment?.text.contains("region \(Self.numbers[index]) of upload one") == true, "\(segment?.text ?? "none")")
        }

        // Search hits point at the utterance holding the word.
        for (index, stretch) in speech.stretches.enumerated().dropFirst() {
            let hits = try #require(try harness.succeed(["search", Self.numbers[index], "--json"]).json() as? [[String: Any]])
            let start = try #require(hits.first?["segmentStart"] as? Double, "search \(Self.numbers[index]): \(hits)")
            #expect(abs(start - stretch.lowerBound) <= 1, "search \(Self.numbers[index]) at \(start), said at \(stretch)")
        }
        // `entry show` times each segment where its utterance is.
        let page = try harness.succeed(["entry", "show", String(id)]).stdout
        for stretch in speech.stretches {
            let seconds = Int(stretch.lowerBound.rounded(.down))
            let near = [seconds, seconds + 1, max(seconds - 1, 0)].map { String(format: "[%02d:%02d]", $0 / 60, $0 % 60) }
            #expect(near.contains { page.contains($0) }, "no [mm:ss] near \(stretch) in \(page)")
        }
        // Subtitle cues start with each utterance and none spans a pause.
        let base = speech.url.deletingPathExtension().path
        for sidecar in ["srt", "vtt"] {
            let cues = Self.cueTimes(try String(contentsOfFile: "\(base).\(sidecar)", encoding: .utf8))
            #expect(cues.count >= speech.stretches.count, "\(sidecar): \(cues)")
            for stretch in speech.stretches {
                #expect(cues.contains { abs($0.start - stretch.lowerBound) <= 0.5 }, "\(sidecar): no cue near \(stretch): \(cues)")
            }
            #expect(cues.allSatisfy { $0.end - $0.start < 8 }, "\(sidecar): a cue spans a pause: \(cues)")
        }
    }

    @Test func aChunkedFilesSegmentsAreSplitAtItsPausesAndItsSeams() throws {
        let (harness, speech) = try TrustedWordsTests.setUp(.across(words: .stretched))
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days", "--max-chunk-seconds", "20"])
        #expect(try harness.server.requests().count >= 2)
        let (_, transcript) = try TrustedWordsTests.storedTranscript(harness, speech.url)
        Self.expectSegmentPerUtterance(TrustedWordsTests.segments(transcript), speech, words: true)
    }

    @Test func aLiveRecordingsSegmentsAreSplitAtItsPauses() throws {
        let (harness, speech) = try TrustedWordsTests.setUp(.across(words: .stretched))
        let microphone = try VirtualMicrophone(in: harness.folder.url, samples: try WAVContents(url: speech.url).samples)
        let result = try harness.binary.run(["record", "--device", microphone.name, "--live", "--no-meter", "--journal", "Days",
                                             "--max-duration", String(Int(speech.seconds))], environment: microphone.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let path = try #require(try queryDatabase(harness.database, "SELECT path FROM recording").first?.first as? String)
        let (_, transcript) = try TrustedWordsTests.storedTranscript(harness, URL(fileURLWithPath: path))
        Self.expectSegmentPerUtterance(TrustedWordsTests.segments(transcript), speech, words: true)
    }

    static let numbers = ["one", "two", "three", "four", "five", "six"]

    /// The start and end of every cue of an SRT or WebVTT file (`HH:MM:SS,mmm --> HH:MM:SS,mmm`).
    static func cueTimes(_ text: String) -> [(start: Double, end: Double)] {
        func seconds(_ stamp: Substring) -> Double {
            let parts = stamp.replacingOccurrences(of: ",", with: ".").split(separator: ":").compactMap { Double($0) }
            return parts.reduce(0) { $0 * 60 + $1 }
        }
        return text.split(separator: "\n").filter { $0.contains("-->") }.map { line in
            let sides = line.components(separatedBy: "-->").map { Substring($0.trimmingCharacters(in: .whitespaces)) }
            return (seconds(sides[0]), seconds(sides[1].split(separator: " ").first ?? ""))
        }
    }
}
