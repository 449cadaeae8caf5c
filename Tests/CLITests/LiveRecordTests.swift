import Foundation
import Testing
import VoiceJournalTestSupport

/// `record --live` against the stub server: pieces are uploaded while the take goes on, a
/// server that goes away costs nothing but waiting for `queue run`, and a killed recorder's
/// pieces are finished without uploading any twice.
@Suite(.onTestThreads) struct LiveRecordTests {
    /// Phrases: 3 s of a synthetic voice (with `PacedSignal`'s ramp added, so every sample
    /// differs from its neighbours) then 0.8 s of silence, so the recorder finds a pause to
    /// cut at every 3.8 s.
    static func phrases(seconds: Int) -> [Int16] {
        let voice = SyntheticVoice.pcm16(seconds: Double(seconds), dbfs: -16, pitchHz: 160)
        return voice.indices.map { index in index % 60_800 < 48_000 ? voice[index] &+ Int16(index % 1000) : 0 }
    }

    /// The piece number in a piece's upload name (`…wav.part3.flac` is 3); nil for anything
    /// else, such as a re-send of a stretch of piece 3 the answer left without words
    /// (`…wav.part3.resend1.flac`: how often that happens depends on where the pauses fell).
    static func piece(_ request: StubRequest) -> Int? {
        request.file?.filename?.wholeMatch(of: /.*\.part(\d+)\.[a-z0-9]+/).flatMap { Int($0.1) }
    }

    /// How many pieces of the take have their transcript stored; 0 while the journal is not
    /// there yet (on a busy machine the recorder may not have created it when the test looks).
    static func storedPieces(home: URL) -> Int {
        (try? CaptureDatabase.rows(home: home, "SELECT count(*) AS n FROM job_chunk WHERE result IS NOT NULL"))?
            .first?["n"] as? Int ?? 0
    }

    /// True for a re-send of a stretch of a piece (`…wav.part3.resend1.flac`).
    static func isResend(_ request: StubRequest) -> Bool {
        request.file?.filename?.wholeMatch(of: /.*\.part\d+\.(resend|half)\d+\.flac/) != nil
    }

    @Test func aServerThatGoesAwayMidRecordingLeavesThePiecesForQueueRun() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer()
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let fed = Self.phrases(seconds: 42)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed + CaptureFixtures.silence(sampleRate: 16000, seconds: 1),
                                     sampleRate: 16000, channels: 1)
        defer { feeder.stop() }
        let home = folder.path("home")
        let running = try VoicejournalBinary(home: home, environment: microphone.environment.merging([
            "OPENAI_BASE_URL": stub.baseURL, "VOICEJOURNAL_RETRY_BASE": "0.05"]) { $1 })
            .start(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "42"])
        // The first piece (cut after 15 s) is uploaded while the take goes on; then the server goes.
        let first = try stub.waitForRequests(1, timeout: 60)
        #expect(first.count == 1 && running.process.isRunning)
        // The server has answered; the recorder stores the answer before the server goes (on
        // a busy machine it may read the answer a moment after the server logged it).
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, Self.storedPieces(home: home) < 1 {
            usleep(20_000)
        }
        stub.stop()
        let result = running.wait()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("cannot be reached"), "\(result.stderr)")
        #expect(result.stderr.contains("transcription is queued"), "\(result.stderr)")
        let path = try #require(result.stdout.firstMatch(of: /file: (.*)/)?.1)
        let wav = try WAVContents(url: URL(fileURLWithPath: String(path)))
        #expect(wav.frames == fed.count && wav.samples == fed)

        // Back: `queue run` uploads the pieces still queued, and only those.
        let again = try StubWhisperServer()
        let run = try VoicejournalBinary(home: home, environment: ["OPENAI_BASE_URL": again.baseURL]).run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        let later = try again.requests().compactMap(Self.piece)
        #expect(!later.isEmpty && !later.contains(1), "\(later)")
        let text = try #require(try CaptureDatabase.rows(home: home, "SELECT text FROM transcript").first?["text"] as? String)
        let heard = text.matches(of: /\.part(\d+)\.(?:\s|$)/).compactMap { Int($0.1) }
        // Each piece once in the text, in order: the first stored before the server went, the
        // rest by `queue run` (a piece sent twice, after an answer that never came, counts once).
        #expect(heard == [1] + Set(later).sorted(), "\(later) \(text)")
    }

    @Test func aKilledLiveRecordingIsFinishedByQueueRunWithoutUploadingAPieceTwice() throws {
        let folder = try TemporaryFolder()
        let stub = try StubWhisperServer()
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let feeder = try PacedFeeder(microphone: microphone, samples: Self.phrases(seconds: 90), sampleRate: 16000, channels: 1)
        defer { feeder.stop() }
        let home = folder.path("home")
        let running = try VoicejournalBinary(home: home, environment: microphone.environment.merging([
            "OPENAI_BASE_URL": stub.baseURL]) { $1 })
            .start(["record", "--device", microphone.name, "--live", "--no-meter", "--max-duration", "0"])
        // Two pieces transcribed and stored, none in flight; six seconds later (the next piece
        // is cut 15 s after the last) part of the take is in no piece yet: kill it there.
        let deadline = Date().addingTimeInterval(90)
        while Date() < deadline, running.process.isRunning {
            let stored = Self.storedPieces(home: home)
            if stored >= 2, try stub.requests().count == stored { break }
            usleep(20_000)
        }
        Thread.sleep(forTimeInterval: 6)
        running.signal(SIGKILL)
        _ = running.wait()
        feeder.stop()
        let before = try stub.requests().compactMap(Self.piece)
        #expect(before == [1, 2])

        let run = try VoicejournalBinary(home: home, environment: ["OPENAI_BASE_URL": stub.baseURL]).run(["queue", "run"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("recovered recording 1"), "\(run.stderr)")
        let uploads = try stub.requests()
        #expect(uploads.allSatisfy { Self.piece($0) != nil || Self.isResend($0) }, "\(uploads.map(\.file?.filename))")
        let requests = uploads.filter { Self.piece($0) != nil }
        let pieces = requests.compactMap(Self.piece)
        #expect(Set(pieces).count == pieces.count, "uploaded: \(pieces)")
        #expect(Set(pieces) == Set(1...pieces.count) && pieces.count >= 3, "uploaded: \(pieces)")

        // One transcript, every piece in order, the pieces end to end up to the end of the audio.
        let rows = try CaptureDatabase.rows(home: home, """
            SELECT transcript.text, transcript.segments, recording.durationSeconds FROM transcript
            JOIN recording ON recording.id = transcript.recordingId
            """)
        #expect(rows.count == 1)
        let text = try #require(rows.first?["text"] as? String)
        #expect(text.matches(of: /\.part(\d+)\.(?:\s|$)/).compactMap { Int($0.1) } == Array(1...pieces.count), "\(text)")
        let duration = try #require(rows.first?["durationSeconds"] as? Double)
        let segmentsJSON = try #require(rows.first?["segments"] as? String)
        let segments = try #require(try JSONSerialization.jsonObject(with: Data(segmentsJSON.utf8)) as? [[String: Any]])
        // The stub answers two segments a piece, the first at the piece's start.
        let starts = stride(from: 0, to: segments.count, by: 2).compactMap { segments[$0]["start"] as? Double }
        let lengths = Dictionary(uniqueKeysWithValues: requests.compactMap { request in
            Self.piece(request).flatMap { piece in request.file?.audioSeconds.map { (piece, $0) } }
        })
        let ends = starts.indices.map { starts[$0] + (lengths[$0 + 1] ?? 0) }
        #expect(starts.count == pieces.count)
        for index in starts.indices.dropFirst() {
            #expect(starts[index] <= ends[index - 1] + 1, "a gap between pieces: \(starts) \(ends)")
        }
        #expect((ends.last ?? 0) >= duration - 1, "pieces end at \(ends), the audio at \(duration)")
        let tmp = home.appendingPathComponent("tmp")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: tmp.path))?.isEmpty ?? true)
    }
}
