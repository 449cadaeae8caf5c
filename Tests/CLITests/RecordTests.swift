import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal record` driven as a user would, capturing through real ALSA from a virtual
/// microphone (the `file` plugin), checked against the audio fed in and the database.
@Suite(.onTestThreads) struct RecordTests {
    @Test(arguments: [(16000, 1, "wav"), (48000, 2, "wav"), (16000, 1, "flac")])
    func recordsExactlyTheSamplesFedIn(rate: Int, channels: Int, format: String) throws {
        let folder = try TemporaryFolder()
        let speech = CaptureFixtures.fitted(try CaptureFixtures.speech("Today I walked to the lake.", sampleRate: rate),
                                            sampleRate: rate, seconds: 2)
        let fed = channels == 1 ? speech
            : CaptureFixtures.interleaved(speech, CaptureFixtures.sine(sampleRate: rate, seconds: 2, dbfs: -20, frequency: 440))
        let microphone = try VirtualMicrophone(in: folder.url, samples: fed)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)

        #expect(try binary.run(["journal", "create", "Walks"]).status == 0)
        let result = try binary.run(["record", "--device", microphone.name, "--rate", "\(rate)", "--channels", "\(channels)",
                                     "--format", format, "--max-duration", "2", "--json",
                                     "--journal", "Walks", "--title", "Lake", "--mood", "grateful", "--theme", "health"])
        #expect(result.status == 0, "\(result.stderr)")
        let output = try #require(try result.json() as? [String: Any])
        #expect(output["stopReason"] as? String == "max-duration")
        let path = try #require(output["path"] as? String)
        let url = URL(fileURLWithPath: path)
        #expect(path.hasPrefix(binary.home.appendingPathComponent("audio").path) && path.hasSuffix(".\(format)"))
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)

        if format == "wav" {
            let wav = try WAVContents(url: url)
            #expect(wav.audioFormat == 1 && wav.bitsPerSample == 16)
            #expect(wav.sampleRate == rate && wav.channels == channels && wav.blockAlign == 2 * channels)
            #expect(wav.declaredDataBytes == wav.dataBytesOnDisk && wav.riffSize == wav.fileSize - 8)
            #expect(wav.samples == fed)
        } else {
            let raw = folder.path("decoded.raw")
            try runTool("sox", [path, "-t", "raw", "-e", "signed", "-b", "16", raw.path])
            #expect(try Data(contentsOf: raw).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) } == fed)
            #expect(try runTool("soxi", ["-r", path]).trimmingCharacters(in: .whitespacesAndNewlines) == "\(rate)")
        }

        let rows = try CaptureDatabase.rows(home: binary.home, """
            SELECT recording.*, entry.kind, entry.title, entry.mood, entry.theme, entry.content, journal.name AS journal,
                   job.state AS jobState, job.priority AS jobPriority, job.id AS jobId
            FROM recording JOIN entry ON entry.id = recording.entryId JOIN journal ON journal.id = entry.journalId
            JOIN job ON job.recordingId = recording.id
            """)
        let row = try #require(rows.first)
        #expect(rows.count == 1)
        #expect(row["state"] as? String == "complete")
        #expect(row["path"] as? String == path)
        #expect(row["durationSeconds"] as? Double == 2.0)
        #expect(row["sampleRate"] as? Int == rate && row["channels"] as? Int == channels && row["format"] as? String == format)
        #expect(row["sizeBytes"] as? Int == (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int))
        #expect(row["sha256"] as? String == (try CaptureDatabase.sha256(of: url)))
        let levels = CaptureFixtures.levels(fed)
        #expect(abs((row["peakDBFS"] as? Double ?? 0) - levels.peak) < 0.01)
        #expect(abs((row["rmsDBFS"] as? Double ?? 0) - levels.rms) < 0.01)
        #expect(row["kind"] as? String == "voice" && row["content"] as? String == "")
        #expect(row["journal"] as? String == "Walks" && row["title"] as? String == "Lake")
        #expect(row["mood"] as? String == "grateful" && row["theme"] as? String == "health")
        #expect(row["jobState"] as? String == "queued" && row["jobPriority"] as? Int == 10)
        #expect(row["jobId"] as? Int == output["jobId"] as? Int)
    }

    @Test func plainMeterLinesAppearOncePerSecondOfAudio() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(
            in: folder.url, samples: CaptureFixtures.sine(sampleRate: 16000, seconds: 3, dbfs: CaptureFixtures.halfScaleDBFS))
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let result = try binary.run(["record", "--device", microphone.name, "--max-duration", "3"])
        #expect(result.status == 0)
        #expect(result.stderr.split(separator: "\n") == [
            "00:01.0 peak -6.0 dBFS rms -9.0 dBFS",
            "00:02.0 peak -6.0 dBFS rms -9.0 dBFS",
            "00:03.0 peak -6.0 dBFS rms -9.0 dBFS",
        ])
        #expect(result.stdout.hasPrefix("Saved recording 1: 3.0 s, peak -6.0 dBFS, rms -9.0 dBFS"))
        // The entry's number with the command that shows it, and what transcribes the take.
        #expect(result.stdout.contains("\n  entry 1: voicejournal entry show 1\n"), "\(result.stdout)")
        #expect(result.stdout.contains("transcription queued (job 1): `voicejournal queue run` transcribes it"), "\(result.stdout)")
    }

    @Test func stopsOnSilenceAfterSpeech() throws {
        let folder = try TemporaryFolder()
        var speech = try CaptureFixtures.speech("Hello there.", sampleRate: 16000)
        speech += Array(repeating: 0, count: (800 - speech.count % 800) % 800)
        let fed = speech + CaptureFixtures.silence(sampleRate: 16000, seconds: 4)
        let microphone = try VirtualMicrophone(in: folder.url, samples: fed)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let result = try binary.run(["record", "--device", microphone.name, "--stop-on-silence", "1", "--no-meter", "--json",
                                     "--max-duration", "\(Double(fed.count) / 16000)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)  // --no-meter
        let output = try #require(try result.json() as? [String: Any])
        #expect(output["stopReason"] as? String == "silence")
        // The take ends one second (20 blocks of 50 ms) after the last block at or above -40 dBFS RMS.
        let blocks = stride(from: 0, to: fed.count, by: 800).map { Array(fed[$0..<$0 + 800]) }
        let lastLoud = try #require(blocks.lastIndex { CaptureFixtures.levels($0).rms >= -40 })
        let expectedFrames = (lastLoud + 1) * 800 + 16000
        #expect(expectedFrames < fed.count)
        #expect(output["durationSeconds"] as? Double == Double(expectedFrames) / 16000)
        let wav = try WAVContents(url: URL(fileURLWithPath: try #require(output["path"] as? String)))
        #expect(wav.samples == Array(fed.prefix(expectedFrames)))
        #expect(wav.declaredDataBytes == wav.dataBytesOnDisk)
    }

    @Test func enterStopsARecordingAndEndOfInputDoesNot() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let fed = PacedSignal.samples(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed, sampleRate: 16000, channels: 1)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let keyboard = Pipe()
        let running = try binary.start(["record", "--device", microphone.name, "--json"], stdin: keyboard.fileHandleForReading)
        try PacedSignal.waitForMeterLine(running, "00:01.0")
        keyboard.fileHandleForWriting.write(Data("no newline yet".utf8))
        try PacedSignal.waitForMeterLine(running, "00:02.0")  // text without Enter changes nothing
        keyboard.fileHandleForWriting.write(Data("\n".utf8))
        let result = running.wait()
        feeder.stop()
        #expect(result.status == 0, "\(result.stderr)")
        let output = try #require(try result.json() as? [String: Any])
        #expect(output["stopReason"] as? String == "enter")
        let seconds = try #require(output["durationSeconds"] as? Double)
        #expect(seconds >= 2 && seconds < 20)
        let wav = try WAVContents(url: URL(fileURLWithPath: try #require(output["path"] as? String)))
        #expect(wav.samples == Array(fed.prefix(wav.samples.count)) && wav.frames == Int(seconds * 16000))
    }

    @Test func sigintSavesTheTakeAndExits130WhileAnotherRecorderLeavesItAlone() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let fed = PacedSignal.samples(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed, sampleRate: 16000, channels: 1)
        let home = folder.path("home")
        let running = try VoicejournalBinary(home: home, environment: microphone.environment)
            .start(["record", "--device", microphone.name, "--json"])  // stdin is /dev/null: its EOF is not Enter
        try PacedSignal.waitForMeterLine(running, "00:01.0")

        // A second recorder starting meanwhile must not "recover" the live take (its file is locked).
        let otherFolder = try TemporaryFolder()
        let other = try VirtualMicrophone(in: otherFolder.url, name: "othermic",
                                          samples: CaptureFixtures.sine(sampleRate: 16000, seconds: 0.5, dbfs: -20))
        let second = try VoicejournalBinary(home: home, environment: other.environment)
            .run(["record", "--device", "othermic", "--max-duration", "0.5", "--no-meter"])
        #expect(second.status == 0 && !second.stderr.contains("recovered"), "\(second.stderr)")
        #expect(try CaptureDatabase.rows(home: home, "SELECT state FROM recording ORDER BY id").compactMap { $0["state"] as? String }
                == ["recording", "complete"])

        running.signal(SIGINT)
        let result = running.wait()
        feeder.stop()
        #expect(result.status == 130, "\(result.stderr)")
        let output = try #require(try result.json() as? [String: Any])
        #expect(output["stopReason"] as? String == "signal")
        let wav = try WAVContents(url: URL(fileURLWithPath: try #require(output["path"] as? String)))
        #expect(wav.declaredDataBytes == wav.dataBytesOnDisk)  // finished properly, not just cut off
        #expect(wav.frames >= 16000 && wav.samples == Array(fed.prefix(wav.samples.count)))
        let row = try #require(try CaptureDatabase.rows(home: home, "SELECT * FROM recording WHERE id = 1").first)
        #expect(row["state"] as? String == "complete")
        #expect(row["durationSeconds"] as? Double == Double(wav.frames) / 16000)
    }

    @Test func sigkillLosesAtMostTheLastSecondAndTheNextCommandCompletesTheRow() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone.paced(in: folder.url)
        let fed = PacedSignal.samples(seconds: 20)
        let feeder = try PacedFeeder(microphone: microphone, samples: fed, sampleRate: 16000, channels: 1)
        let home = folder.path("home")
        let running = try VoicejournalBinary(home: home, environment: microphone.environment)
            .start(["record", "--device", microphone.name, "--max-duration", "0"])
        try PacedSignal.waitForMeterLine(running, "00:02.0")
        running.signal(SIGKILL)
        _ = running.wait()
        let fedFrames = feeder.finish() / 2
        #expect(fedFrames >= 32000)

        // The file as the kill left it: valid, and covering all but at most the last second fed.
        let audio = try FileManager.default.subpathsOfDirectory(atPath: home.appendingPathComponent("audio").path)
            .filter { $0.hasSuffix(".wav") }
        let url = home.appendingPathComponent("audio").appendingPathComponent(try #require(audio.first))
        #expect(audio.count == 1)
        let killed = try WAVContents(url: url)
        #expect(killed.audioFormat == 1 && killed.sampleRate == 16000 && killed.channels == 1)
        #expect(killed.declaredDataBytes <= killed.dataBytesOnDisk)
        #expect(killed.frames >= fedFrames - 16000, "header covers \(killed.frames) of \(fedFrames) frames fed")
        #expect(killed.samples == Array(fed.prefix(killed.samples.count)))
        #expect(Int(try runTool("soxi", ["-s", url.path]).trimmingCharacters(in: .whitespacesAndNewlines)) == killed.frames)
        #expect(try CaptureDatabase.rows(home: home, "SELECT state FROM recording").first?["state"] as? String == "recording")

        // Whatever command runs next (here a plain listing) finds the row, repairs the header
        // and completes it.
        let result = try VoicejournalBinary(home: home).run(["entry", "list", "--json"])
        #expect(result.status == 0)
        #expect(result.stderr.contains("recovered recording 1"), "\(result.stderr)")
        #expect((try result.json() as? [Any])?.count == 1, "stdout stays one JSON document")
        let repaired = try WAVContents(url: url)
        #expect(repaired.declaredDataBytes == repaired.dataBytesOnDisk && repaired.riffSize == repaired.fileSize - 8)
        #expect(repaired.frames >= killed.frames && repaired.samples == Array(fed.prefix(repaired.samples.count)))
        let rows = try CaptureDatabase.rows(home: home, """
            SELECT recording.*, job.state AS jobState FROM recording JOIN job ON job.recordingId = recording.id ORDER BY recording.id
            """)
        #expect(rows.count == 1)
        let row = try #require(rows.first)
        #expect(row["state"] as? String == "complete" && row["jobState"] as? String == "queued")
        #expect(row["durationSeconds"] as? Double == Double(repaired.frames) / 16000)
        #expect(row["sha256"] as? String == (try CaptureDatabase.sha256(of: url)))
        #expect(row["sizeBytes"] as? Int == repaired.fileSize)
        #expect(row["entryId"] is Int)
    }

    @Test func wrongMoodThemeOrJournalIsAUsageErrorAndRecordsNothing() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(in: folder.url, samples: CaptureFixtures.silence(sampleRate: 16000, seconds: 1))
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let mood = try binary.run(["record", "--device", microphone.name, "--mood", "joyful"])
        #expect(mood.status == 2)
        #expect(mood.stderr.contains("'joyful'"))
        // One line names every mood the user could have meant.
        #expect(mood.stderr.contains("happy, grateful, excited, neutral, sad, anxious, stressed, angry"))
        #expect(mood.stderr.split(separator: "\n").count == 1)
        let theme = try binary.run(["record", "--device", microphone.name, "--theme", "travel"])
        #expect(theme.status == 2)
        #expect(theme.stderr.contains("personal, work, relationships, family, health, goals, hobbies, school"))
        #expect(try binary.run(["record", "--device", microphone.name, "--format", "mp3"]).status == 2)
        let journal = try binary.run(["record", "--device", microphone.name, "--journal", "Dreams", "--max-duration", "1"])
        #expect(journal.status == 2)
        #expect(journal.stderr.contains("no journal named \"Dreams\""))
        #expect(!FileManager.default.fileExists(atPath: binary.home.appendingPathComponent("audio").path))
    }

    @Test func unknownDeviceExits3WithAdviceAndLeavesNoRows() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        let result = try binary.run(["record", "--device", "no-such-mic"])
        #expect(result.status == 3)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("snd_pcm_open") && result.stderr.contains("voicejournal devices"))
        #expect(try CaptureDatabase.rows(home: binary.home, "SELECT count(*) AS n FROM recording UNION ALL SELECT count(*) FROM entry")
                    .compactMap { $0["n"] as? Int } == [0, 0])
    }
}

/// Audio for the paced (FIFO) tests and waiting on the recorder's progress.
enum PacedSignal {
    /// A tone with a ramp added, so every sample differs from its neighbours and any
    /// misplaced or repeated block shows up in a sample-by-sample comparison.
    static func samples(seconds: Int) -> [Int16] {
        (0..<(seconds * 16000)).map { index in
            Int16(8000 * sin(Double(index) * 2 * .pi * 220 / 16000)) &+ Int16(index % 1000)
        }
    }

    /// Waits until the recorder's plain meter shows `time` (it reached that much audio).
    static func waitForMeterLine(_ running: RunningCommand, _ time: String, timeout: Double = 30) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !running.stderrSoFar.contains("\(time) peak") {
            guard Date() < deadline, running.process.isRunning else {
                throw RecorderStalled(waitingFor: time, stderr: running.stderrSoFar)
            }
            usleep(20_000)
        }
    }
}

/// The recorder ended or stalled before showing the meter line a test waited for.
struct RecorderStalled: Error, CustomStringConvertible {
    let waitingFor: String
    let stderr: String
    var description: String { "recorder never reached \(waitingFor); stderr: \(stderr)" }
}

@Suite(.onTestThreads) struct RecordWaitTests {
    @Test func waitWithoutAKeyForARemoteServerRefusesBeforeRecording() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(in: folder.url, samples: CaptureFixtures.silence(sampleRate: 16000, seconds: 1))
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment.merging([
            "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "https://api.openai.com/v1",
        ]) { $1 })
        let result = try binary.run(["record", "--device", microphone.name, "--max-duration", "1", "--no-meter", "--wait"])
        #expect(result.status == 3, "\(result.stderr)")
        #expect(result.stderr.contains("OPENAI_API_KEY"))
        let entries = try #require(try binary.run(["entry", "list", "--json"]).json() as? [Any])
        #expect(entries.isEmpty, "nothing was recorded")
    }
}
