import Foundation
import Testing
import VoiceJournalTestSupport

/// `record --live` on a real Whisper: a paced speech feed is transcribed piece by piece while
/// it is recorded, and the transcript reads as well as the whole file sent at once.
@Suite struct LiveEndToEndTests {
    /// The feed: a second of silence, then each sentence followed by 2 s of silence.
    struct Feed {
        var samples: [Int16] = []
        var starts: [Double] = []
    }

    static func feed() throws -> Feed {
        var feed = Feed()
        feed.samples = CaptureFixtures.silence(sampleRate: 16000, seconds: 1)
        for sentence in LongAudioEndToEndTests.sentences {
            feed.starts.append(Double(feed.samples.count) / 16000)
            feed.samples += try CaptureFixtures.speech(sentence, sampleRate: 16000)
            feed.samples += CaptureFixtures.silence(sampleRate: 16000, seconds: 2)
        }
        return feed
    }

    @Test func aPacedTakeIsTranscribedWhileRecordedAsWellAsTheWholeFileWithSentencesInPlace() async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("e2e-live")
        let feed = try Self.feed()
        let seconds = Double(feed.samples.count) / 16000
        let (result, home) = try await onOwnThread { () -> (CommandResult, URL) in
            let microphone = try VirtualMicrophone.paced(in: folder.url)
            // A second more than is recorded: a FIFO that runs dry reads as stale data.
            let feeder = try PacedFeeder(microphone: microphone, samples: feed.samples + CaptureFixtures.silence(sampleRate: 16000, seconds: 1),
                                         sampleRate: 16000, channels: 1)
            defer { feeder.stop() }
            let home = folder.path("home")
            let binary = VoicejournalBinary(home: home, environment: microphone.environment.merging([
                "OPENAI_BASE_URL": server.baseURL]) { $1 })
            // Off a terminal: one meter line per second of audio and each piece's text as it comes, on stderr.
            return (try binary.run(["record", "--device", microphone.name, "--live", "--max-duration", "\(seconds)"],
                                   environment: ["VOICEJOURNAL_LOG_LEVEL": "debug"]), home)
        }
        try requireSuccess(result, "record --live")
        // Off a terminal, stderr holds a meter line per second of audio, each piece's text as it
        // comes back, and (at debug level) log lines with the time first.
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let meterLines = lines.indices.filter { lines[$0].contains(" peak ") && lines[$0].contains(" dBFS") }
        let logLines = lines.indices.filter { lines[$0].hasPrefix("20") }
        let textLines = lines.indices.filter { !meterLines.contains($0) && !logLines.contains($0) && !lines[$0].hasPrefix("voicejournal:") }
        // A piece came back before the recording ended: its text is printed before the last second's meter line.
        let lastMeterLine = try #require(meterLines.last)
        #expect(textLines.contains { $0 < lastMeterLine }, "\(result.stderr)")
        #expect(lines.filter { $0.contains("live piece queued") }.count >= 2, "\(result.stderr)")
        #expect(!result.stderr.contains("overrun"), "\(result.stderr)")

        // Every sample fed is in the file, exactly.
        let path = try #require(result.stdout.firstMatch(of: /file: (.*)/)?.1)
        let wav = try WAVContents(url: URL(fileURLWithPath: String(path)))
        #expect(wav.frames == feed.samples.count && wav.samples == feed.samples)

        // The transcript (after the saved recording's lines) against the whole file sent at once.
        let transcript = result.stdout.components(separatedBy: "\n\n").dropFirst().joined(separator: " ")
        let whole = try await onOwnThread { () -> String in
            let dir = folder.path("whole")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: URL(fileURLWithPath: String(path)), to: dir.appendingPathComponent("take.wav"))
            let sent = try VoicejournalBinary(home: folder.path("home-whole"), environment: ["OPENAI_BASE_URL": server.baseURL])
                .run(["transcribe", dir.path, "--sidecar", "txt"])
            try requireSuccess(sent, "transcribe the whole take")
            return try String(contentsOf: dir.appendingPathComponent("take.txt"), encoding: .utf8)
        }
        let reference = LongAudioEndToEndTests.sentences.joined(separator: " ")
        let live = WordErrorRate.of(transcript, against: reference)
        let sentWhole = WordErrorRate.of(whole, against: reference)
        print("WER record --live \(WordErrorRate.formatted(live)), whole file \(WordErrorRate.formatted(sentWhole))")
        #expect(live <= sentWhole + 0.03, "live heard \(transcript.debugDescription)")
        #expect(WordErrorRate.words(transcript).count <= WordErrorRate.words(reference).count + 2, "a word doubled at a seam?")

        // It was cut into pieces, and the stored segments sit on the take's own timeline.
        let rows = try CaptureDatabase.rows(home: home, "SELECT segments FROM transcript")
        let segmentsJSON = try #require(rows.first?["segments"] as? String)
        let segments = try #require(try JSONSerialization.jsonObject(with: Data(segmentsJSON.utf8)) as? [[String: Any]])
        let starts = segments.compactMap { $0["start"] as? Double }
        #expect(starts == starts.sorted(), "\(starts)")
        for (sentence, start) in zip(LongAudioEndToEndTests.sentences, feed.starts) {
            #expect(starts.contains { abs($0 - start) <= 0.5 }, "\(sentence) placed at \(start): \(starts)")
        }
    }
}
