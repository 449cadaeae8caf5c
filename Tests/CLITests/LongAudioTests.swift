import Foundation
import Testing
import VoiceJournalTestSupport

/// Recordings too big or too long for one request: measured, split at pauses into chunk
/// jobs, and stitched into one transcript (against the stub server, which records every
/// request's file size and name).
@Suite(.onTestThreads) struct LongAudioTests {
    /// A WAV of `cycles` times `tone` seconds of a (synthetic) voice then `pause` seconds of silence.
    @discardableResult
    static func tonesWithPauses(at url: URL, cycles: Int, tone: Double, pause: Double,
                                rate: Int = 16000, channels: Int = 1) throws -> URL {
        let cycle = SyntheticVoice.pcm16(seconds: tone, sampleRate: rate, dbfs: -16, pitchHz: 150)
            + [Int16](repeating: 0, count: Int((pause * Double(rate)).rounded()))
        let folder = try TemporaryFolder("vj-cycle")
        let one = folder.path("cycle.wav")
        try SyntheticVoice.writeWAV(cycle, sampleRate: rate, to: one)
        // sox repeats it and copies it to every channel, quickly even for long files.
        try runTool("sox", [one.path, "-c", String(channels), "-b", "16", url.path, "repeat", String(cycles - 1)])
        return url
    }

    /// The harness's (new) folder of input files.
    static func inputFolder(_ harness: TranscribeHarness) throws -> URL {
        let dir = harness.folder.path("in")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The chunk files left under the home's tmp folder.
    static func leftoverChunkFiles(_ harness: TranscribeHarness) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: harness.folder.path("home/tmp").path)) ?? []
    }

    /// The stored segments' start times of the file's transcript, in order.
    static func segmentStarts(_ harness: TranscribeHarness, path: String) throws -> [Double] {
        let rows = try queryDatabase(harness.database, """
            SELECT transcript.segments FROM transcript JOIN recording ON recording.id = transcript.recordingId
            WHERE recording.path = '\(path.replacingOccurrences(of: "'", with: "''"))'
            """)
        guard let json = rows.first?.first as? String,
              let segments = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return [] }
        return segments.compactMap { $0["start"] as? Double }
    }

    @Test func aShortFileWithASmallChunkLimitIsUploadedInChunksAndStitchedInOrder() throws {
        let harness = try TranscribeHarness()
        let dir = try Self.inputFolder(harness)
        let file = try Self.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 12, tone: 1.5, pause: 1)

        let result = try harness.binary.run(["transcribe", dir.path, "--max-chunk-seconds", "6"])
        #expect(result.status == 0, "\(result.stderr)")
        let names = try harness.server.requests().compactMap(\.file?.filename)
        #expect(names.count >= 4)
        #expect(names.allSatisfy { $0.hasPrefix("talk.wav.part") && $0.hasSuffix(".flac") })
        #expect(Set(names).count == names.count, "no chunk is uploaded twice")

        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.count == 1)
        // The stub answers "Transcript of <name without extension>." for each chunk: the parts in order.
        let expected = (1...names.count).map { "Transcript of talk.wav.part\($0)." }.joined(separator: " ")
        #expect(transcript.text == expected)
        let starts = try Self.segmentStarts(harness, path: file.path)
        #expect(starts.count == 2 * names.count)
        #expect(zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 })
        #expect((starts.last ?? 0) > 15, "later chunks are shifted onto the file's timeline")
        #expect(try harness.jobStates()[file.path] == "done")
        #expect(Self.leftoverChunkFiles(harness).isEmpty)
        let counts = try queryDatabase(harness.database, "SELECT (SELECT count(*) FROM job_chunk), (SELECT count(*) FROM chunked_job)")
        #expect(counts.first?.compactMap { $0 as? Int } == [0, 0])
    }

    @Test func aFileOfOnlySilenceUploadsNothingAndGetsAnEmptyTranscript() throws {
        let harness = try TranscribeHarness()
        let dir = try Self.inputFolder(harness)
        let file = dir.appendingPathComponent("quiet.wav")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", file.path, "trim", "0", "90"])

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try harness.server.requests().isEmpty)
        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.count == 1)
        #expect(transcript.text.isEmpty)
    }

    @Test func aMinuteOfSilenceBeforeTheSpeechIsNotSentAndTimesStayOnTheFilesTimeline() throws {
        let harness = try TranscribeHarness()
        let dir = try Self.inputFolder(harness)
        let speech = try Self.tonesWithPauses(at: harness.folder.path("speech.wav"), cycles: 4, tone: 1.5, pause: 1)
        let file = dir.appendingPathComponent("late.wav")
        // 60 s of digital silence, then 10 s of tones and pauses.
        try runTool("sox", [speech.path, file.path, "pad", "60", "0"])

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let sent = try harness.server.requests().compactMap(\.file)
        #expect(sent.count == 1, "one request, for the speech only")
        let seconds = try #require(sent.first?.audioSeconds)
        #expect(seconds < 12, "the minute of silence was not sent (\(seconds) s were)")
        // The stub's segments start at 0 and 1.5 s of what it was sent: stored, they sit
        // where the speech is in the file, a minute in.
        let starts = try Self.segmentStarts(harness, path: file.path)
        #expect(starts.count == 2)
        #expect(abs((starts.first ?? 0) - 60) < 0.5, "\(starts)")
        #expect(abs((starts.last ?? 0) - 61.5) < 0.5, "\(starts)")
    }

    @Test func aWAVOverTheRequestLimitIsSentWithNoRequestOverIt() throws {
        let harness = try TranscribeHarness()
        let dir = try Self.inputFolder(harness)
        // 15 minutes of 44.1 kHz stereo: 158.8 MB, six times what one request may carry.
        let file = try Self.tonesWithPauses(at: dir.appendingPathComponent("long.wav"), cycles: 180, tone: 3, pause: 2,
                                            rate: 44100, channels: 2)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int64)
        #expect(size > 26_214_400)

        let result = try harness.binary.run(["transcribe", dir.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try harness.server.requests().compactMap(\.file)
        #expect(files.count >= 2)
        #expect(files.allSatisfy { $0.bytes <= 26_214_400 - 65_536 })
        #expect(try harness.transcripts()[file.path]?.count == 1)
        #expect(Self.leftoverChunkFiles(harness).isEmpty)
    }

    @Test func aChunkThatFailsForGoodFailsItsRecordingWithTheChunksMessage() throws {
        let harness = try TranscribeHarness(rules: [
            .init(match: "part2", responses: [], then: .error(status: 400, message: "audio chunk refused"))])
        let dir = try Self.inputFolder(harness)
        let file = try Self.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 12, tone: 1.5, pause: 1)

        let result = try harness.binary.run(["transcribe", dir.path, "--max-chunk-seconds", "6"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("chunk 2"), "\(result.stderr)")
        #expect(try harness.jobStates()[file.path] == "failed")
        #expect(try harness.transcripts()[file.path]?.count == 0)
        #expect(Self.leftoverChunkFiles(harness).isEmpty)

        // Queued again, it is planned afresh and finishes.
        let retry = try harness.binary.run(["queue", "retry", "--failed"])
        #expect(retry.status == 0)
        let list = try harness.binary.run(["queue", "list"])
        #expect(list.stdout.split(separator: "\n").count == 2, "a header and the file: chunks are not listed as jobs of their own: \(list.stdout)")
    }

    @Test func aRunKilledMidFileResumesWithoutUploadingAFinishedChunkAgain() throws {
        let harness = try TranscribeHarness(delay: 0.4)
        let dir = try Self.inputFolder(harness)
        let file = try Self.tonesWithPauses(at: dir.appendingPathComponent("talk.wav"), cycles: 16, tone: 1.5, pause: 1)

        let victim = try harness.binary.start(["transcribe", dir.path, "--max-chunk-seconds", "6", "--jobs", "1"])
        let doneQuery = "SELECT chunkIndex FROM job_chunk WHERE result IS NOT NULL"
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, ((try? queryDatabase(harness.database, doneQuery))?.count ?? 0) < 2 {
            Thread.sleep(forTimeInterval: 0.02)
        }
        victim.signal(SIGKILL)
        #expect(victim.wait().status == 128 + SIGKILL)
        let doneBefore = Set(try queryDatabase(harness.database, doneQuery).compactMap { $0[0] as? Int })
        let total = try queryDatabase(harness.database, "SELECT count(*) FROM job_chunk").first?.first as? Int ?? 0
        #expect(doneBefore.count >= 2 && doneBefore.count < total, "killed mid-file: \(doneBefore.count) of \(total) chunks")
        let listed = try harness.binary.run(["queue", "list"])
        #expect(listed.stdout.contains("chunks \(doneBefore.count) of \(total) done"), "\(listed.stdout)")
        let uploadsBefore = try harness.server.requests().count

        let resumed = try harness.binary.run(["queue", "run"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let later = try harness.server.requests().dropFirst(uploadsBefore).compactMap(\.file?.filename)
        let finishedNames = Set(doneBefore.map { "talk.wav.part\($0 + 1).flac" })
        #expect(!later.isEmpty && later.allSatisfy { !finishedNames.contains($0) }, "\(later)")
        let transcript = try #require(try harness.transcripts()[file.path])
        #expect(transcript.count == 1)
        #expect(transcript.text == (1...total).map { "Transcript of talk.wav.part\($0)." }.joined(separator: " "))
        #expect(Self.leftoverChunkFiles(harness).isEmpty)
    }

    @Test func ctrlCWhileAFileIsEncodedIntoChunksStopsAtOnceAndLeavesItQueued() throws {
        let harness = try TranscribeHarness()
        let dir = try Self.inputFolder(harness)
        // 10 minutes of 44.1 kHz stereo: seconds of decoding, resampling and encoding.
        let file = try Self.tonesWithPauses(at: dir.appendingPathComponent("long.wav"), cycles: 120, tone: 3, pause: 2,
                                            rate: 44100, channels: 2)
        let run = try harness.binary.start(["transcribe", dir.path, "--max-chunk-seconds", "30"])
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, Self.leftoverChunkFiles(harness).isEmpty {
            Thread.sleep(forTimeInterval: 0.005)
        }
        #expect(!Self.leftoverChunkFiles(harness).isEmpty, "the encoding began")
        run.signal(SIGINT)
        let stopped = run.wait()
        #expect(stopped.status == 130, "\(stopped.stderr)")
        // It did not go on to finish the encoding and queue the chunks: nothing half-made is left.
        #expect(Self.leftoverChunkFiles(harness).isEmpty)
        let chunkRows = try queryDatabase(harness.database, "SELECT count(*) FROM job_chunk").first?.first as? Int
        #expect(chunkRows == 0)
        #expect(try harness.jobStates()[file.path] == "queued")
        #expect(try harness.server.requests().isEmpty)

        let resumed = try harness.binary.run(["queue", "run"])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try harness.transcripts()[file.path]?.count == 1)
        #expect(Self.leftoverChunkFiles(harness).isEmpty)
    }
}
