import Foundation
import Testing
import VoiceJournalTestSupport

/// What the page says in a real browser when it cannot record (Debian's headless Chromium,
/// driven as in `BrowserTests`).
@Suite(.onTestThreads, .serialized) struct ServePageBrowserTests {
    private func check(_ what: String, url: String, serve: ServeHarness) throws -> [String: Any] {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver", BrowserTests.python.path] {
            try #require(FileManager.default.isExecutableFile(atPath: tool),
                         "\(tool) is missing: run scripts/bootstrap and scripts/browser-setup (or set VOICEJOURNAL_BROWSER_PYTHON)")
        }
        let silence = serve.folder.path("silence.wav")
        try runTool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", silence.path, "trim", "0", "2"])
        let output = try runTool(BrowserTests.python.path, [
            PackagePaths.root.appendingPathComponent("Tests/Browser/answer_page.py").path,
            "--url", url, "--audio", silence.path, "--seconds", "1", "--screenshot", serve.folder.path("unused.png").path,
            "--check", what,
        ])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    }

    @Test func overPlainHTTPFromAnotherMachineThePageSaysTheLinkNeedsHTTPS() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        // By a name, not 127.0.0.1 or localhost: what a phone on the LAN sees with --host 0.0.0.0.
        let report = try check("insecure", url: "http://insecure.test:\(serve.port)/a/\(token)", serve: serve)
        #expect(report["isSecureContext"] as? Bool == false, "\(report)")
        #expect((report["notice"] as? String)?.contains("https") == true, "\(report)")
        #expect(report["recorderHidden"] as? Bool == true && report["unsupportedHidden"] as? Bool == true, "\(report)")
    }

    @Test func withNoMicrophoneThePageSaysSo() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        let report = try check("no-microphone", url: serve.base + "/a/\(token)", serve: serve)
        #expect((report["status"] as? String)?.hasPrefix("No microphone was found") == true, "\(report)")
    }
}
