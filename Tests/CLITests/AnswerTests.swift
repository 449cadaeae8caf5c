import Foundation
import Testing
import VoiceJournalTestSupport

/// Answering assignments: recording (like `record --assignment`) or attaching a file.
@Suite(.onTestThreads) struct AnswerTests {
    /// A question in the "Questions" journal assigned to "Myself", made with the CLI; its id.
    private func makeAssignment(_ binary: VoicejournalBinary, question: String = "What made you smile today?") throws -> Int {
        _ = try binary.run(["journal", "create", "Questions"])  // fails harmlessly the second time
        let asked = try binary.run(["question", "add", "--journal", "Questions", question, "--json"])
        let questionId = try #require((try asked.json() as? [String: Any])?["id"] as? Int, "\(asked.stderr)")
        let assigned = try binary.run(["assign", "\(questionId)", "--person", "Myself", "--json"])
        return try #require((try assigned.json() as? [String: Any])?["id"] as? Int, "\(assigned.stderr)")
    }

    private func assignment(_ binary: VoicejournalBinary, _ id: Int) throws -> [String: Any] {
        try #require(try CaptureDatabase.rows(home: binary.home, "SELECT * FROM assignment WHERE id = ?", ["\(id)"]).first)
    }

    @Test func attachingAFileAnswersTheAssignment() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        let missing = try binary.run(["answer", "99", "--file", "/dev/null"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "voicejournal: there is no assignment 99; see `voicejournal assignment list`\n")
        let id = try makeAssignment(binary)
        let source = folder.path("grandma's answer.flac")
        try runTool("sox", ["-n", "-r", "22050", "-c", "1", "-b", "16", source.path, "synth", "1.5", "sine", "440", "vol", "0.5"])

        let result = try binary.run(["answer", "\(id)", "--file", source.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int)
        #expect(result.stderr == "voicejournal: copying \(source.path) (\(size / 1000) KB) into the journal\n")
        let output = try #require(try result.json() as? [String: Any])
        let copy = try #require(output["path"] as? String)
        #expect(copy.hasPrefix(binary.home.appendingPathComponent("audio").path) && copy.hasSuffix(".flac"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: copy)) == Data(contentsOf: source))
        #expect((try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int) == 0o600)

        let answered = try assignment(binary, id)
        #expect(answered["status"] as? String == "answered" && answered["answeredAt"] is String)
        let row = try #require(try CaptureDatabase.rows(home: binary.home, """
            SELECT recording.*, job.state AS jobState, job.priority AS jobPriority FROM recording
            JOIN job ON job.recordingId = recording.id
            """).first)
        #expect(row["assignmentId"] as? Int == id && row["entryId"] is NSNull)
        #expect(row["state"] as? String == "complete" && row["format"] as? String == "flac")
        #expect(row["durationSeconds"] as? Double == 1.5 && row["sampleRate"] as? Int == 22050)
        #expect(row["sha256"] as? String == (try CaptureDatabase.sha256(of: source)))
        #expect(row["jobState"] as? String == "queued" && row["jobPriority"] as? Int == 10)

        // The same audio again, for another assignment: stored once, so refused.
        let other = try makeAssignment(binary, question: "And tomorrow?")
        let again = try binary.run(["answer", "\(other)", "--file", source.path])
        #expect(again.status == 1 && again.stderr.contains("already in the journal as recording 1"))
        #expect(try assignment(binary, other)["status"] as? String == "pending")
        // An answered assignment takes no second answer.
        #expect(try binary.run(["answer", "\(id)", "--file", source.path]).status == 2)
    }

    @Test func aFileThatIsNotAudioGetsOneLineAndExit1() throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"))
        let id = try makeAssignment(binary)
        let text = folder.path("answer.wav")
        try Data("I will answer later".utf8).write(to: text)
        let result = try binary.run(["answer", "\(id)", "--file", text.path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("voicejournal: \(text.path) is not audio voicejournal can read"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(try assignment(binary, id)["status"] as? String == "pending")
        #expect(try CaptureDatabase.rows(home: binary.home, "SELECT id FROM recording").isEmpty)
    }

    @Test func aPipeOrATruncatedFileIsRefusedWithOneLineAndNothingKept() throws {
        let folder = try TemporaryFolder()
        var binary = VoicejournalBinary(home: folder.path("home"))
        let id = try makeAssignment(binary)
        // Opening a pipe would wait for a writer forever: `timeout` ends the test if it is opened.
        binary.launcher = ["timeout", "120"]
        let fifo = folder.path("answer.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let piped = try binary.run(["answer", "\(id)", "--file", fifo.path])
        #expect(piped.status == 1)
        #expect(piped.stderr == "voicejournal: \(fifo.path): not a regular file (a pipe)\n")

        let tone = try makeTone(at: folder.path("nine seconds.wav"), seconds: 9)
        let cut = folder.path("cut.wav")
        try Data(try Data(contentsOf: tone).prefix(100_000)).write(to: cut)
        let truncated = try binary.run(["answer", "\(id)", "--file", cut.path])
        #expect(truncated.status == 1)
        #expect(truncated.stderr == "voicejournal: \(cut.path): truncated: the header says 9.0 s, the file holds 3.1 s\n")

        #expect(try assignment(binary, id)["status"] as? String == "pending")
        #expect(try CaptureDatabase.rows(home: binary.home, "SELECT id FROM recording").isEmpty)
        let audio = binary.home.appendingPathComponent("audio")
        #expect((FileManager.default.enumerator(atPath: audio.path)?.allObjects ?? []).allSatisfy { !($0 as? String ?? "").contains(".") })
    }

    @Test func answeringFromTheMicrophoneLinksTheRecordingWithoutAnEntry() throws {
        let folder = try TemporaryFolder()
        let fed = CaptureFixtures.sine(sampleRate: 16000, seconds: 1, dbfs: -12)
        let microphone = try VirtualMicrophone(in: folder.url, samples: fed + fed)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let first = try makeAssignment(binary)
        let second = try makeAssignment(binary, question: "Who taught you to swim?")

        let answer = try binary.run(["answer", "\(first)", "--device", microphone.name, "--max-duration", "1", "--no-meter"])
        #expect(answer.status == 0, "\(answer.stderr)")
        #expect(answer.stdout.contains("answers assignment \(first)"))
        // `record --assignment` is the same thing; entry options make no sense there.
        #expect(try binary.run(["record", "--assignment", "\(second)", "--mood", "happy"]).status == 2)
        let record = try binary.run(["record", "--assignment", "\(second)", "--device", microphone.name,
                                     "--max-duration", "1", "--no-meter"])
        #expect(record.status == 0, "\(record.stderr)")

        for id in [first, second] { #expect(try assignment(binary, id)["status"] as? String == "answered") }
        let listed = try #require(try binary.run(["assignment", "list", "--json"]).json() as? [[String: Any]])
        #expect(listed.map { $0["status"] as? String } == ["answered", "answered"])
        let rows = try CaptureDatabase.rows(home: binary.home, "SELECT assignmentId, entryId, durationSeconds, state FROM recording ORDER BY id")
        #expect(rows.map { $0["assignmentId"] as? Int } == [first, second])
        #expect(rows.allSatisfy { $0["entryId"] is NSNull && $0["durationSeconds"] as? Double == 1.0 && $0["state"] as? String == "complete" })
        #expect(try CaptureDatabase.rows(home: binary.home, "SELECT id FROM entry").isEmpty)
        #expect(try binary.run(["record", "--assignment", "\(first)", "--device", microphone.name]).status == 2)
    }
}
