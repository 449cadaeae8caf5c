import Foundation
import Testing
import VoiceJournalTestSupport

/// The links every command prints are the ones the running `serve` answers: its `--port`, its
/// `--public-url`. A `--public-url` or `$VOICEJOURNAL_PUBLIC_URL` given still wins; a serve that
/// stopped, or was killed, no longer counts.
@Suite(.onTestThreads) struct ServeLinkTests {
    /// What `assignment link ID` printed (its one line), after checking it succeeded.
    private func link(_ serve: ServeHarness, _ id: Int, _ extra: [String] = [], environment: [String: String] = [:]) throws -> String {
        let result = try serve.binary.run(["assignment", "link", "\(id)"] + extra, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func record(_ serve: ServeHarness) -> URL { serve.binary.home.appendingPathComponent("serve.json") }

    @Test func whileServeRunsOnItsPortLinksPointThereAndAfterItStopsBackToTheConfigFile() throws {
        let port = try closedLoopbackPort()
        let serve = try ServeHarness(["--port", "\(port)"])
        let (id, token) = try serve.assignment()
        let running = try #require(serve.server)
        #expect(running.stdoutSoFar.hasPrefix("Serving answers on http://127.0.0.1:\(port) (links: http://127.0.0.1:\(port)/a/TOKEN)."),
                "\(running.stdoutSoFar)")
        // Links lead where it listens: no line says otherwise.
        #expect(!running.stdoutSoFar.contains("Links point to"), "\(running.stdoutSoFar)")
        #expect(try link(serve, id) == "http://127.0.0.1:\(port)/a/\(token)")
        // The running serve comes before the config file's public_url.
        try serve.binary.writeConfig("[defaults]\npublic_url = \"https://files.example.net/\"\n")
        let printed = try link(serve, id)
        #expect(printed == "http://127.0.0.1:\(port)/a/\(token)")
        #expect(try serve.request(String(printed.dropFirst("http://127.0.0.1:\(port)".count))).status == 200)
        // assign and assignment show print the same base.
        let assigned = try serve.binary.run(["assign", "1", "--person", "me"])
        #expect(assigned.stdout.contains("Link: http://127.0.0.1:\(port)/a/"), "\(assigned.stdout)")
        let shown = try serve.binary.run(["assignment", "show", "\(id)"])
        #expect(shown.stdout.contains("http://127.0.0.1:\(port)/a/\(token)"), "\(shown.stdout)")

        let stopped = try #require(serve.stop(signal: SIGTERM))
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: record(serve).path))
        #expect(try link(serve, id) == "https://files.example.net/a/\(token)")
        try FileManager.default.removeItem(at: serve.binary.configFolder)
        #expect(try link(serve, id) == "http://127.0.0.1:8787/a/\(token)")
    }

    @Test func aServeWithAPublicURLSaysSoAndEveryCommandPrintsItUnlessToldOtherwise() throws {
        let port = try closedLoopbackPort()
        let serve = try ServeHarness(["--port", "\(port)", "--public-url", "https://journal.example.org"])
        let (id, token) = try serve.assignment()
        let lines = try #require(serve.server).stdoutSoFar.split(separator: "\n").map(String.init)
        #expect(lines.first == "Serving answers on http://127.0.0.1:\(port) (links: https://journal.example.org/a/TOKEN). Ctrl-C stops.")
        #expect(lines.dropFirst().first == "Links point to https://journal.example.org (--public-url), not to where it listens.",
                "\(lines)")
        #expect(try link(serve, id) == "https://journal.example.org/a/\(token)")
        // What is given to the command itself still wins over the running serve.
        #expect(try link(serve, id, ["--public-url", "https://other.example.com/"]) == "https://other.example.com/a/\(token)")
        #expect(try link(serve, id, environment: ["VOICEJOURNAL_PUBLIC_URL": "https://env.example.com"])
                == "https://env.example.com/a/\(token)")
    }

    @Test func configShowsTheRunningServeAsWhereThePublicURLComesFrom() throws {
        let serve = try ServeHarness()
        let pid = try #require(serve.server).process.processIdentifier
        let shown = try serve.binary.run(["config"])
        #expect(shown.status == 0, "\(shown.stderr)")
        let line = shown.stdout.split(separator: "\n").first { $0.hasPrefix("public_url") }.map(String.init) ?? ""
        #expect(line.contains("http://127.0.0.1:\(serve.port)  [running serve, pid \(pid)]"), "\(shown.stdout)")
        let json = try #require(try serve.binary.run(["config", "--json"]).json() as? [String: Any])
        let setting = (json["settings"] as? [[String: Any]])?.first { $0["name"] as? String == "public_url" }
        #expect(setting?["source"] as? String == "running serve" && setting?["origin"] as? String == "pid \(pid)", "\(json)")
        serve.stop(signal: SIGTERM)
        let after = try serve.binary.run(["config"]).stdout
        #expect(after.contains("http://127.0.0.1:8787  [default]"), "\(after)")
    }

    @Test func aRecordLeftByAKilledServeIsIgnored() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        #expect(try link(serve, id) == "\(serve.base)/a/\(token)")
        let killed = try #require(serve.stop(signal: SIGKILL))
        #expect(killed.status == 128 + SIGKILL)
        // The record is still there; the lock that made it true went with the process.
        #expect(FileManager.default.fileExists(atPath: record(serve).path))
        #expect(try link(serve, id) == "http://127.0.0.1:8787/a/\(token)")
        #expect(!FileManager.default.fileExists(atPath: record(serve).path))
    }

    @Test func aSecondServeOnTheSameHomeSaysTheFirstOnesLinksStay() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let firstPid = try #require(serve.server).process.processIdentifier
        let second = try serve.binary.start(["serve", "--port", "0"])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && !second.stdoutSoFar.contains("Serving answers") && second.process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(try link(serve, id) == "\(serve.base)/a/\(token)")
        second.signal(SIGTERM)
        let output = second.wait()
        #expect(output.status == 0 && output.stdout.contains("Serving answers"), "\(output.stdout) \(output.stderr)")
        let notices = output.stderr.split(separator: "\n").filter { $0.contains("another serve") }
        #expect(notices == ["voicejournal: warning: another serve (pid \(firstPid), links \(serve.base)/a/TOKEN) runs on this home: "
                            + "assign and assignment link print its links, not this one's, until it stops"], "\(output.stderr)")
        // The second one's stop left the first one's record alone.
        #expect(try link(serve, id) == "\(serve.base)/a/\(token)")
    }
}
