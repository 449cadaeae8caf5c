import Foundation
import Testing
import VoiceJournalTestSupport

/// The answer page in a real browser: Debian's headless Chromium with a fake microphone
/// playing espeak-ng speech, driven by Selenium (Tests/Browser/answer_page.py, with the python
/// of scripts/browser-setup), against `serve --transcribe` and the local Whisper
/// (whisper-server/whisper-server). Saves a screenshot of the page (the README's docs/serve-page.png with VOICEJOURNAL_UPDATE_SCREENSHOT=1).
@Suite(.serialized) struct BrowserTests {
    static let sentence = "I grew up in a small village near the sea, in a white house with a red door and a garden full of apples."

    /// The python of the browser environment: `$VOICEJOURNAL_BROWSER_PYTHON`, else
    /// `.venv-browser/bin/python` in the package (made by scripts/browser-setup).
    static var python: URL {
        if let path = ProcessInfo.processInfo.environment["VOICEJOURNAL_BROWSER_PYTHON"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return PackagePaths.root.appendingPathComponent(".venv-browser/bin/python")
    }

    @Test func aPersonAnswersThroughThePageAndTheAnswerIsTranscribed() async throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", Self.python.path] {
            try #require(FileManager.default.isExecutableFile(atPath: tool),
                         "\(tool) is missing: run scripts/bootstrap and scripts/browser-setup (or set VOICEJOURNAL_BROWSER_PYTHON)")
        }
        let whisper = try await WhisperServer.shared()
        let serve = try ServeHarness(["--transcribe", "--asked-by", "Sam", "--jobs", "1"],
                                     environment: ["OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_RETRY_BASE": "0.2"])
        _ = try serve.binary.run(["person", "add", "Grandma Rose"])
        _ = try serve.binary.run(["question", "add", "--journal", "Family", "Where did you grow up, and what was your house like?"])
        let assigned = try serve.binary.run(["assign", "1", "--person", "Grandma Rose", "--public-url", serve.base])
        let link = try #require(assigned.stdout.split(separator: "\n").first { $0.hasPrefix("Link: ") }?.dropFirst(6), "\(assigned.stdout)")
        #expect(link.hasPrefix(serve.base + "/a/"))

        // The speech at 48 kHz, then silence: the fake microphone plays it once.
        let spoken = serve.folder.path("spoken.wav"), speech = serve.folder.path("speech.wav")
        try CaptureFixtures.speak(Self.sentence, to: spoken, voice: "en+m3")
        try runTool("sox", [spoken.path, "-r", "48000", "-c", "1", "-b", "16", speech.path, "pad", "0", "2"])
        let speechSeconds = Double(try runTool("soxi", ["-D", speech.path]).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        // The README's screenshot is replaced only when asked (VOICEJOURNAL_UPDATE_SCREENSHOT=1),
        // so a test run leaves the working tree as it was.
        let updateReadme = ProcessInfo.processInfo.environment["VOICEJOURNAL_UPDATE_SCREENSHOT"] == "1"
        let screenshot = updateReadme ? PackagePaths.root.appendingPathComponent("docs/serve-page.png") : serve.folder.path("serve-page.png")
        try FileManager.default.createDirectory(at: screenshot.deletingLastPathComponent(), withIntermediateDirectories: true)

        let output = try runTool(Self.python.path, [
            PackagePaths.root.appendingPathComponent("Tests/Browser/answer_page.py").path,
            "--url", String(link), "--audio", speech.path, "--seconds", String(format: "%.1f", speechSeconds - 0.5),
            "--screenshot", screenshot.path, "--width", "360", "--height", "760",
        ])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        #expect(try Data(contentsOf: screenshot).starts(with: [0x89, 0x50, 0x4E, 0x47]), "the screenshot is a PNG")

        // The page: the question and who asks, accessible, within a 360 px wide screen.
        #expect(report["question"] as? String == "Where did you grow up, and what was your house like?")
        #expect(report["asker"] as? String == "Sam asks:")
        #expect(report["innerWidth"] as? Int == 360)
        #expect((report["scrollWidth"] as? Int ?? .max) <= 360 && (report["scrollWidthRecording"] as? Int ?? .max) <= 360)
        #expect((report["violations"] as? [Any])?.isEmpty == true, "axe: \(report["violations"] ?? "")")
        #expect((report["violationsReview"] as? [Any])?.isEmpty == true, "axe: \(report["violationsReview"] ?? "")")
        #expect((report["meterMax"] as? Double ?? 0) > 0.3, "the level meter did not move: \(report["meterMax"] ?? "")")
        // Recorded, played back, sent; the link now thanks.
        #expect(report["played"] as? Bool == true)
        #expect((report["thanks"] as? String)?.hasPrefix("Thank you!") == true)
        #expect(report["afterReload"] as? String == "Thank you!")
        #expect((report["console"] as? [String])?.isEmpty == true, "browser console: \(report["console"] ?? "")")

        // The journal: answered, the WebM decodes to the length the browser recorded.
        #expect(try serve.row(1)["status"] as? String == "answered")
        let recording = try #require(try serve.recordings(of: 1).first)
        let recorded = try #require(report["recordedSeconds"] as? Double)
        let stored = try #require(recording["durationSeconds"] as? Double)
        #expect(abs(stored - recorded) < 0.5, "stored \(stored) s, browser recorded \(recorded) s")
        #expect(recording["format"] as? String == "webm" || (recording["path"] as? String)?.hasSuffix(".webm") == true)

        // --transcribe: the answer is transcribed in the server's own process. The local Whisper
        // server is shared by every end-to-end test of the run, so on a busy machine the answer
        // may wait its turn for minutes: the deadline only guards against a hang.
        var transcript: String?
        let deadline = Date().addingTimeInterval(420)
        while transcript == nil, Date() < deadline {
            transcript = try CaptureDatabase.rows(home: serve.binary.home, "SELECT text FROM transcript WHERE recordingId = ?",
                                                  ["\(recording["id"] as? Int ?? 0)"]).first?["text"] as? String
            if transcript == nil { try await Task.sleep(for: .milliseconds(250)) }
        }
        let text = try #require(transcript, "no transcript within 420 s; serve said: \(serve.server?.stderrSoFar ?? "")")
        let rate = WordErrorRate.of(text, against: Self.sentence)
        #expect(rate <= 0.15, "WER \(WordErrorRate.formatted(rate)): \(text)")
        let stopped = serve.stop()
        #expect(stopped?.status == 0, "\(stopped?.stderr ?? "")")
        #expect(stopped?.stdout.contains("Transcribed 1 answer.") == true, "\(stopped?.stdout ?? "")")
    }
}
