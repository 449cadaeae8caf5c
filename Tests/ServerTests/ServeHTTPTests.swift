import Foundation
import Testing
import VoiceJournalTestSupport

/// `voicejournal serve` over real HTTP: the built binary on 127.0.0.1, curl as the client,
/// the journal's SQLite file read back.
@Suite(.onTestThreads, .serialized) struct ServeHTTPTests {
    @Test func theSameIdempotencyKeyTwiceStoresOneRecording() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let speech = try serve.speechWebM()
        let first = try serve.upload(token, speech, key: "flaky-phone-1")
        let again = try serve.upload(token, speech, key: "flaky-phone-1")
        #expect(first.status == 200 && again.status == 200, "\(first.body) \(again.body)")
        #expect(first.body.contains("\"answered\"") && again.body == first.body)
        let recordings = try serve.recordings(of: id)
        #expect(recordings.count == 1)
        #expect(recordings.first?["idempotencyKey"] as? String == "flaky-phone-1")
        #expect(serve.files(in: "audio").count == 1 && serve.files(in: "incoming").isEmpty)
        let jobs = try CaptureDatabase.rows(home: serve.binary.home, "SELECT * FROM job WHERE recordingId = ?",
                                            ["\(recordings.first?["id"] as? Int ?? 0)"])
        #expect(jobs.count == 1 && jobs.first?["state"] as? String == "queued")
        #expect(try serve.row(id)["status"] as? String == "answered")
        let output = serve.stop()
        #expect(output?.status == 0)
        #expect(output?.stdout.contains("Assignment #\(id) answered: recording") == true)
        #expect(output?.stdout.contains("the same answer was sent again") == true)
    }

    @Test func anUploadOverTheCapGets413AndLeavesNoFileAndNoRow() throws {
        let serve = try ServeHarness(["--max-upload-bytes", "200000"])
        let (id, token) = try serve.assignment()
        let big = serve.folder.path("big.wav")
        try runTool("sox", ["-n", "-r", "48000", "-c", "1", "-b", "16", big.path, "synth", "5", "sine", "440"])
        // With a Content-Length, refused before the body is read…
        let declared = try serve.upload(token, big, type: "audio/wav")
        #expect(declared.status == 413, "\(declared.body)")
        // …and streamed without one (chunked), cut off once the count passes the cap.
        let streamed = try serve.upload(token, big, type: "audio/wav", key: "take-2", extra: ["-H", "Transfer-Encoding: chunked"])
        #expect(streamed.status == 413, "\(streamed.body)")
        #expect(try serve.recordings(of: id).isEmpty)
        #expect(serve.files(in: "incoming").isEmpty && serve.files(in: "audio").isEmpty)
        #expect(try serve.row(id)["status"] as? String == "pending")
    }

    @Test func aNonAudioUploadGets400AndNoRow() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let text = serve.folder.path("notes.webm")
        try Data(String(repeating: "not audio at all\n", count: 200).utf8).write(to: text)
        let reply = try serve.upload(token, text)
        #expect(reply.status == 400 && reply.body.contains("refused"), "\(reply.body)")
        let empty = serve.folder.path("empty.webm")
        try Data().write(to: empty)
        #expect(try serve.upload(token, empty, key: "take-2").status == 400)
        let noPart = try serve.request("/a/\(token)/answer", ["-F", "note=hello", "-H", "Idempotency-Key: take-3"])
        #expect(noPart.status == 400)
        #expect(try serve.recordings(of: id).isEmpty)
        #expect(serve.files(in: "incoming").isEmpty && serve.files(in: "audio").isEmpty)
        #expect(try serve.row(id)["status"] as? String == "pending")
    }

    @Test func audioLongerThanTheLimitIsRefused() throws {
        let serve = try ServeHarness(["--max-answer-seconds", "5"])
        let (id, token) = try serve.assignment()
        let long = serve.folder.path("long.wav")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", long.path, "synth", "12", "sine", "300", "vol", "0.3"])
        let reply = try serve.upload(token, long, type: "audio/wav")
        #expect(reply.status == 400 && reply.body.contains("longer than 0:05"), "\(reply.body)")
        #expect(try serve.recordings(of: id).isEmpty && serve.files(in: "audio").isEmpty)
    }

    @Test func unknownAndMalformedTokensAreIndistinguishable() throws {
        let serve = try ServeHarness(["--requests-per-minute", "100000"])
        let (_, token) = try serve.assignment()
        let unknown = String(token.reversed())
        let malformed = ["x", "not-a-token", String(token.dropLast()), token + "0", token.uppercased(), "%3Cscript%3E", String(repeating: "f", count: 500)]
        let reference = try serve.request("/a/\(unknown)")
        #expect(reference.status == 404)
        // An upload gets the 404 as JSON the page can show (the same for every link that does not work).
        let postedReference = try serve.request("/a/\(unknown)/answer", ["-X", "POST"])
        #expect(postedReference.status == 404 && postedReference.headers["content-type"] == "application/json")
        for bad in malformed + ["../\(token)", "\(token)/extra"] {
            let reply = try serve.request("/a/\(bad)")
            #expect(reply.status == reference.status && reply.body == reference.body, "\(bad): \(reply.status)")
            #expect(!reply.body.contains(token))
            let posted = try serve.request("/a/\(bad)/answer", ["-X", "POST"])
            #expect(posted.status == 404 && posted.body == postedReference.body, "\(bad): \(posted.status)")
        }
        #expect(try serve.request("/a/\(token)").status == 200)

        // Timing: many requests of each kind over one kept-alive connection, interleaved, so
        // the machine's load falls on both alike; their medians differ by no more than the noise.
        let rounds = 150
        var urls: [String] = []
        for round in 0..<rounds { urls += [serve.base + "/a/\(unknown)", serve.base + "/a/" + malformed[round % 3]] }
        let times = try runTool("curl", ["-s", "-o", "/dev/null", "-w", "%{time_total}\n"] + urls)
            .split(separator: "\n").compactMap { Double($0) }
        try #require(times.count == 2 * rounds)
        let unknownTimes = stride(from: 0, to: times.count, by: 2).map { times[$0] }
        let malformedTimes = stride(from: 1, to: times.count, by: 2).map { times[$0] }
        let (u, m) = (Self.median(unknownTimes), Self.median(malformedTimes))
        let noise = Self.median(unknownTimes.map { abs($0 - u) }) + Self.median(malformedTimes.map { abs($0 - m) })
        #expect(abs(u - m) <= max(3 * noise, 0.0005), "medians \(u) s (unknown) vs \(m) s (malformed), noise \(noise) s")
    }

    @Test func anAnsweredLinkShowsTheThankYouPageAndTakesNoSecondAnswer() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment(question: "What was your first job?")
        let before = try serve.request("/a/\(token)")
        #expect(before.status == 200 && before.body.contains("What was your first job?") && before.body.contains("id=\"record\""))
        // Without JavaScript the page says what it needs.
        #expect(before.body.contains("<noscript>") && before.body.contains("needs JavaScript"))
        #expect(try serve.upload(token, try serve.speechWebM()).status == 200)
        let after = try serve.request("/a/\(token)")
        #expect(after.status == 200 && after.body.contains("Thank you!") && !after.body.contains("id=\"record\""))
        let second = try serve.upload(token, try serve.speechWebM("Something else entirely.", name: "other"), key: "take-2")
        #expect(second.status == 409 && second.body.contains("already been answered"), "\(second.body)")
        #expect(try serve.recordings(of: id).count == 1 && serve.files(in: "audio").count == 1)
    }

    @Test func everyResponseCarriesTheSecurityHeaders() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        let replies = [
            try serve.request("/a/\(token)"), try serve.request("/a/nothing-here"), try serve.request("/"),
            try serve.request("/assets/answer.js"), try serve.request("/assets/answer.css"),
            try serve.request("/a/\(token)/answer", ["-X", "POST", "-H", "Content-Type: text/plain", "-d", "x"]),
        ]
        for reply in replies {
            let policy = reply.headers["content-security-policy"] ?? ""
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe"), "\(reply.status)")
            #expect(reply.headers["x-content-type-options"] == "nosniff")
            #expect(reply.headers["referrer-policy"] == "no-referrer")
            #expect(reply.headers["x-frame-options"] == "DENY")
        }
        #expect(replies[3].headers["content-type"]?.hasPrefix("text/javascript") == true)
        // Nothing inline for the CSP to forbid: scripts only by src, no style attributes, no handlers.
        let page = replies[0].body
        #expect(page.components(separatedBy: "<script").count == 2 && page.contains("<script src=\"/assets/answer.js\""))
        #expect(!page.contains("style=") && !page.contains(" onclick=") && !page.contains("http://") && !page.contains("https://"))
    }

    @Test func aQuestionHoldingMarkupIsShownAsText() throws {
        let serve = try ServeHarness(["--asked-by", "Sam <b>&</b>"])
        let (_, token) = try serve.assignment(question: "Was it <script>alert('x')</script> & \"fun\"?")
        let page = try serve.request("/a/\(token)").body
        #expect(page.contains("Was it &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;fun&quot;?"), "\(page)")
        #expect(page.contains("Sam &lt;b&gt;&amp;&lt;/b&gt; asks:"))
        #expect(!page.contains("<script>alert"))
    }

    @Test func requestsPastTheRateLimitAreAskedToWait() throws {
        let serve = try ServeHarness(["--requests-per-minute", "5"])
        let (_, token) = try serve.assignment()
        let statuses = try (0..<7).map { _ in try serve.request("/a/\(token)").status }
        #expect(statuses.prefix(5).allSatisfy { $0 == 200 } && statuses.last == 429, "\(statuses)")
        let limited = try serve.request("/a/\(token)")
        #expect(limited.headers["retry-after"].flatMap(Int.init).map { $0 >= 1 } == true)
    }

    @Test func assignmentLinkPrintsThePublicURLFromTheConfigFile() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        try serve.binary.writeConfig("[defaults]\npublic_url = \"https://journal.example.org/\"\n")
        // A running serve's links would come before the file's (ServeLinkTests): stopped first.
        serve.stop()
        let link = try serve.binary.run(["assignment", "link", "\(id)"])
        #expect(link.status == 0 && link.stdout == "https://journal.example.org/a/\(token)\n", "\(link.stderr)")
        let flagged = try serve.binary.run(["assignment", "link", "\(id)", "--public-url", "https://tunnel.example.net"])
        #expect(flagged.stdout == "https://tunnel.example.net/a/\(token)\n")
        #expect(try serve.binary.run(["assignment", "link", "\(id)", "--public-url", "journal"]).status == 2)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
