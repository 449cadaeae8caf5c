import Foundation
import Testing
import VoiceJournalTestSupport

/// Words you can trust, through `transcribe` and the stub server's kinds that answer from
/// where the speech is in each upload (`timed`, `firstHalf`, `dropLast`, `pausePhrase`,
/// `loop`): every stretch of speech gets words or a visible gap, nothing is kept that the
/// server put over a pause, a loop is cut and its region sent again once, and every stored
/// time is on the recording's own clock however the upload was cut.
@Suite(.onTestThreads) struct TrustedWordsTests {
    /// A harness whose server answers every upload with `kind`, a journal, and the fixture in
    /// a folder of its own.
    static func setUp(_ kind: StubWhisperServer.Behaviour) throws -> (TranscribeHarness, PlacedSpeech) {
        let harness = try TranscribeHarness(rules: [.init(responses: [], then: kind)])
        try harness.succeed(["journal", "create", "Days"])
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return (harness, try PlacedSpeech.make(in: dir))
    }

    /// `voicejournal entry show ID --json` of the file's entry: the transcript's keys
    /// (`segments`, `unheard`, `leftOut`, `audioSentSeconds`, `resends`), wherever the page puts them.
    static func storedTranscript(_ harness: TranscribeHarness, _ file: URL) throws -> (id: Int, transcript: [String: Any]) {
        let rows = try queryDatabase(harness.database, """
            SELECT entryId FROM recording WHERE path = '\(file.path.replacingOccurrences(of: "'", with: "''"))'
            """)
        let id = try #require(rows.first?.first as? Int, "the file has an entry")
        let page = try #require(try harness.succeed(["entry", "show", String(id), "--json"]).json() as? [String: Any])
        let recording = page["recording"] as? [String: Any]
        let transcript = (recording?["transcript"] as? [String: Any]) ?? (page["transcript"] as? [String: Any])
            ?? (page["segments"] != nil ? page : nil)
        return (id, try #require(transcript, "entry show --json has the transcript: \(page.keys.sorted())"))
    }

    struct StoredSegment {
        let start: Double, end: Double, text: String
        let words: [(start: Double, end: Double, word: String)]
    }

    static func segments(_ transcript: [String: Any]) -> [StoredSegment] {
        ((transcript["segments"] as? [[String: Any]]) ?? []).map { segment in
            StoredSegment(start: segment["start"] as? Double ?? -1, end: segment["end"] as? Double ?? -1,
                          text: segment["text"] as? String ?? "",
                          words: ((segment["words"] as? [[String: Any]]) ?? []).map {
                              ($0["start"] as? Double ?? -1, $0["end"] as? Double ?? -1, $0["word"] as? String ?? "")
                          })
        }
    }

    static func text(_ harness: TranscribeHarness, _ file: URL) throws -> String {
        try #require(try harness.transcripts()[file.path]).text
    }

    /// The requests the server answered from their audio, with the regions it found in each.
    static func regionCounts(_ harness: TranscribeHarness) throws -> [Int] {
        try harness.server.requests().map { $0.regions?.count ?? -1 }
    }

    // MARK: - Coverage

    @Test func stretchesTheServerLeftOutAreSentAgainOnceEachAndGetTheirWords() throws {
        let (harness, speech) = try Self.setUp(.firstHalf)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days"])

        let counts = try Self.regionCounts(harness)
        // The upload holds the four stretches; the server answered the first two; the other
        // two were each sent again on their own, once.
        #expect(counts.first == speech.stretches.count, "\(counts)")
        #expect(counts.count == 1 + speech.stretches.count / 2, "\(counts)")
        #expect(counts.dropFirst().allSatisfy { $0 == 1 }, "\(counts)")

        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        let segments = Self.segments(transcript)
        for stretch in speech.stretches {
            #expect(segments.contains { $0.start < stretch.upperBound && stretch.lowerBound < $0.end && !$0.text.isEmpty },
                    "no segment for \(stretch): \(segments.map { ($0.start, $0.end, $0.text) })")
        }
        #expect((transcript["unheard"] as? [Any] ?? []).isEmpty)
        #expect(transcript["resends"] as? Int == speech.stretches.count / 2)
    }

    @Test func aStretchStillUnheardAfterItsResendIsShownAsAGap() throws {
        let (harness, speech) = try Self.setUp(.dropLast)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days"])
        let last = try #require(speech.stretches.last)

        // The last stretch went unanswered, was sent again once, and came back empty again.
        let counts = try Self.regionCounts(harness)
        #expect(counts == [speech.stretches.count, 1], "\(counts)")

        let (id, transcript) = try Self.storedTranscript(harness, speech.url)
        let gaps = (transcript["unheard"] as? [[String: Any]]) ?? []
        #expect(gaps.count == 1, "\(gaps)")
        let gap = try #require(gaps.first)
        let start = try #require(gap["start"] as? Double), end = try #require(gap["end"] as? Double)
        #expect(abs(start - last.lowerBound) < 0.5 && abs(end - last.upperBound) < 0.5, "\(gap) for \(last)")
        #expect(transcript["resends"] as? Int == 1)
        let segments = Self.segments(transcript)
        #expect(!segments.contains { $0.start < last.upperBound && last.lowerBound < $0.end })
        for stretch in speech.stretches.dropLast() {
            #expect(segments.contains { $0.start < stretch.upperBound && stretch.lowerBound < $0.end })
        }

        // `entry show` marks the gap in the text: [unheard mm:ss–mm:ss].
        let page = try harness.succeed(["entry", "show", String(id)]).stdout
        let pattern = try NSRegularExpression(pattern: #"\[unheard (\d\d):(\d\d)–(\d\d):(\d\d)\]"#)
        let match = try #require(pattern.firstMatch(in: page, range: NSRange(page.startIndex..., in: page)), "\(page)")
        let number = { (group: Int) -> Double in
            Double(Range(match.range(at: group), in: page).map { String(page[$0]) } ?? "") ?? -1
        }
        let shownStart = number(1) * 60 + number(2), shownEnd = number(3) * 60 + number(4)
        #expect(abs(shownStart - last.lowerBound) <= 1 && abs(shownEnd - last.upperBound) <= 1, "\(page)")
    }

    // MARK: - No words from silence

    @Test func aPhraseOverTheLongestPauseIsLeftOutOfTheTextAndSearchButKeptForAudit() throws {
        let (harness, speech) = try Self.setUp(.pausePhrase)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days"])

        let text = try Self.text(harness, speech.url)
        #expect(!text.localizedCaseInsensitiveContains("watching"), "\(text)")
        #expect(text.contains("region"), "the words of the speech are kept: \(text)")
        let hits = try #require(try harness.succeed(["search", "watching", "--json"]).json() as? [Any])
        #expect(hits.isEmpty)

        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        let leftOut = (transcript["leftOut"] as? [[String: Any]]) ?? []
        #expect(leftOut.contains { ($0["text"] as? String ?? "").contains("Thanks for watching") && $0["reason"] as? String == "silence" },
                "\(leftOut)")
        #expect(!Self.segments(transcript).contains { $0.text.contains("watching") })
        // Words over silence are no reason to send anything again.
        #expect(try harness.server.requests().count == 1)
        #expect(transcript["resends"] as? Int ?? 0 == 0)
    }

    @Test func aRepetitionLoopIsCutAndItsRegionSentAgainOnce() throws {
        let (harness, speech) = try Self.setUp(.loop)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days"])

        let text = try Self.text(harness, speech.url)
        #expect(text.components(separatedBy: "I went home").count - 1 <= 1, "\(text)")
        let counts = try Self.regionCounts(harness)
        #expect(counts == [speech.stretches.count, 1], "the loop's region was sent again once: \(counts)")

        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        let leftOut = (transcript["leftOut"] as? [[String: Any]]) ?? []
        #expect(leftOut.contains { $0["reason"] as? String == "repetition" && ($0["text"] as? String ?? "").contains("I went home") },
                "\(leftOut)")
        #expect(transcript["resends"] as? Int == 1)
        // The loop's stretch still has words.
        let last = try #require(speech.stretches.last)
        #expect(Self.segments(transcript).contains { $0.start < last.upperBound && last.lowerBound < $0.end })
    }

    // MARK: - Times on the recording's clock

    /// Each stretch has exactly one stored segment, within 0.1 s of where its speech is, and
    /// its words lie inside it from its first to its last.
    static func expectTimesMatch(_ transcript: [String: Any], _ speech: PlacedSpeech,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        let segments = Self.segments(transcript)
        #expect(segments.count == speech.stretches.count,
                "\(segments.map { ($0.start, $0.end, $0.text) })", sourceLocation: sourceLocation)
        for (stretch, segment) in zip(speech.stretches, segments) {
            #expect(abs(segment.start - stretch.lowerBound) <= 0.1 && abs(segment.end - stretch.upperBound) <= 0.1,
                    "segment \(segment.start)–\(segment.end) for speech at \(stretch)", sourceLocation: sourceLocation)
            #expect(!segment.words.isEmpty, "word timings are stored", sourceLocation: sourceLocation)
            for word in segment.words {
                #expect(word.start >= stretch.lowerBound - 0.1 && word.end <= stretch.upperBound + 0.1 && word.start <= word.end,
                        "word \(word) outside \(stretch)", sourceLocation: sourceLocation)
            }
            if let first = segment.words.first, let last = segment.words.last {
                #expect(abs(first.start - stretch.lowerBound) <= 0.1 && abs(last.end - stretch.upperBound) <= 0.1,
                        "words \(first.start)–\(last.end) for speech at \(stretch)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aShortFilesTimesAreWhereItsSpeechIs() throws {
        let (harness, speech) = try Self.setUp(.timed)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days"])
        let requests = try harness.server.requests()
        #expect(requests.count == 1)
        // Only the speech was sent (the pauses shortened), and what was sent is counted.
        let sent = requests.compactMap { $0.file?.audioSeconds }.reduce(0, +)
        #expect(sent > 0 && sent < speech.seconds / 2, "\(sent) s sent of \(speech.seconds) s")
        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        Self.expectTimesMatch(transcript, speech)
        let counted = try #require(transcript["audioSentSeconds"] as? Double)
        #expect(abs(counted - sent) < 0.05, "audioSentSeconds \(counted), the server got \(sent)")
        #expect(transcript["resends"] as? Int ?? 0 == 0)
    }

    @Test func aChunkedFilesTimesAreWhereItsSpeechIs() throws {
        let (harness, speech) = try Self.setUp(.timed)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days", "--max-chunk-seconds", "6"])
        let requests = try harness.server.requests()
        #expect(requests.count >= 2, "chunked: \(requests.count) requests")
        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        Self.expectTimesMatch(transcript, speech)
        let sent = requests.compactMap { $0.file?.audioSeconds }.reduce(0, +)
        #expect(abs((transcript["audioSentSeconds"] as? Double ?? -1) - sent) < 0.05)
    }

    @Test func aLiveRecordingsTimesAreWhereItsSpeechIs() throws {
        let (harness, speech) = try Self.setUp(.timed)
        let microphone = try VirtualMicrophone(in: harness.folder.url, samples: try WAVContents(url: speech.url).samples)
        let result = try harness.binary.run(["record", "--device", microphone.name, "--live", "--no-meter", "--journal", "Days",
                                             "--max-duration", String(Int(speech.seconds))], environment: microphone.environment)
        #expect(result.status == 0, "\(result.stderr)")
        // Transcribed as it ends: not said to be queued just before its transcript comes.
        #expect(result.stdout.contains("transcribing the rest of it now") && !result.stdout.contains("transcription queued"), "\(result.stdout)")
        let requests = try harness.server.requests()
        #expect(requests.count >= 2, "pieces cut while recording: \(requests.count)")
        let path = try #require(try queryDatabase(harness.database, "SELECT path FROM recording").first?.first as? String)
        let (_, transcript) = try Self.storedTranscript(harness, URL(fileURLWithPath: path))
        Self.expectTimesMatch(transcript, speech)
        let sent = requests.compactMap { $0.file?.audioSeconds }.reduce(0, +)
        #expect(sent > 0 && sent < speech.seconds / 2, "\(sent) s sent of \(speech.seconds) s")
        #expect(abs((transcript["audioSentSeconds"] as? Double ?? -1) - sent) < 0.05)
    }

    @Test func withoutTrimmingTheWholeFileIsSentOnceAndTimesStillMatch() throws {
        let (harness, speech) = try Self.setUp(.timed)
        try harness.succeed(["transcribe", speech.url.path, "--journal", "Days", "--no-trim"])
        let requests = try harness.server.requests()
        #expect(requests.count == 1)
        let sent = try #require(requests.first?.file?.audioSeconds)
        #expect(abs(sent - speech.seconds) < 0.01, "\(sent) s sent of \(speech.seconds) s")
        let (_, transcript) = try Self.storedTranscript(harness, speech.url)
        Self.expectTimesMatch(transcript, speech)
        #expect(abs((transcript["audioSentSeconds"] as? Double ?? -1) - speech.seconds) < 0.05)
    }
}

/// The stub server's kinds that answer from the audio, on their own (curl, no voicejournal):
/// the regions it finds are where the fixture placed its speech, and each kind answers as
/// its tests expect.
@Suite(.onTestThreads) struct StubSpeechKindsTests {

    /// The stub's verbose_json answer (with word timings) to `file`, and the regions it logged.
    static func ask(_ behaviour: StubWhisperServer.Behaviour, _ file: URL) throws -> (answer: [String: Any], regions: [[Double]]) {
        let server = try StubWhisperServer(rules: [.init(responses: [], then: behaviour)])
        let body = try runTool("curl", ["-sS", "-F", "file=@\(file.path)", "-F", "model=whisper-1", "-F", "response_format=verbose_json",
                                        "-F", "timestamp_granularities[]=word", "-F", "timestamp_granularities[]=segment",
                                        "\(server.baseURL)/audio/transcriptions"])
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(body)")
        let regions = try server.requests().first?.regions
        return (answer, try #require(regions))
    }

    static func spans(_ answer: [String: Any]) -> [(start: Double, end: Double, text: String, ratio: Double)] {
        ((answer["segments"] as? [[String: Any]]) ?? []).map {
            ($0["start"] as? Double ?? -1, $0["end"] as? Double ?? -1, $0["text"] as? String ?? "", $0["compression_ratio"] as? Double ?? -1)
        }
    }

    @Test func timedAnswersEachPlacedUtteranceWhereItIsWithWordsSpreadOverIt() throws {
        let folder = try TemporaryFolder("stub-kinds")
        let speech = try PlacedSpeech.make(in: folder.url)
        let (answer, regions) = try Self.ask(.timed, speech.url)
        #expect(regions.count == speech.stretches.count)
        let spans = Self.spans(answer)
        #expect(spans.count == speech.stretches.count)
        for (span, stretch) in zip(spans, speech.stretches) {
            #expect(abs(span.start - stretch.lowerBound) <= 0.05 && abs(span.end - stretch.upperBound) <= 0.05, "\(span) for \(stretch)")
        }
        let words = (answer["words"] as? [[String: Any]]) ?? []
        #expect(words.count == spans.count * 5, "five words a region")
        #expect(words.first?["start"] as? Double == spans.first?.start)
        #expect(Set(spans.map(\.text)).count == spans.count, "every region says something else")
    }

    @Test func eachKindAnswersWhatItsTestsExpect() throws {
        let folder = try TemporaryFolder("stub-kinds")
        let speech = try PlacedSpeech.make(in: folder.url)
        #expect(Self.spans(try Self.ask(.firstHalf, speech.url).answer).count == 2)
        #expect(Self.spans(try Self.ask(.dropLast, speech.url).answer).count == 3)

        let looped = Self.spans(try Self.ask(.loop, speech.url).answer)
        #expect(looped.count == 4)
        #expect(looped.last?.text == " " + Array(repeating: "I went home.", count: 5).joined(separator: " "))
        #expect(looped.last?.ratio == 2.8 && looped.first?.ratio == 1.3)

        // The phrase lies inside the longest pause (between the second and third utterance).
        let phrased = Self.spans(try Self.ask(.pausePhrase, speech.url).answer)
        let phrase = try #require(phrased.first { $0.text == " Thanks for watching!" })
        #expect(phrase.start > speech.stretches[1].upperBound && phrase.end < speech.stretches[2].lowerBound)
        #expect(abs(phrase.end - phrase.start - 1) < 0.01)

        // An upload of one utterance: answered by first_half and loop, empty for drop_last.
        let one = folder.path("one.flac")
        try runTool("sox", [speech.url.path, one.path, "trim", "1", "4"])
        #expect(Self.spans(try Self.ask(.firstHalf, one).answer).count == 1)
        #expect(Self.spans(try Self.ask(.loop, one).answer).map(\.ratio) == [1.3])
        let dropped = try Self.ask(.dropLast, one)
        #expect(dropped.regions.count == 1 && Self.spans(dropped.answer).isEmpty && dropped.answer["text"] as? String == "")
    }
}
