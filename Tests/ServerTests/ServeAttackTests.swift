import Foundation
import Testing
import VoiceJournalTestSupport

/// `serve` against clients that are hostile, unlucky or behind a proxy: one key sent ten times
/// at once, a full disk, idle and dripping connections, too few file descriptors, a stranger
/// flooding through the proxy everyone shares, and a listener on every interface.
@Suite(.onTestThreads, .serialized) struct ServeAttackTests {
    // MARK: One Idempotency-Key, ten sends at once

    @Test func tenConcurrentSendsOfOneKeyAllGetTheFirstAnswer() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let speech = try serve.speechWebM()
        let replies = try serve.parallelUploads(token, speech, count: 10, key: { _ in "double-tap-1" })
        #expect(replies.allSatisfy { $0.status == 200 }, "\(replies.map(\.status)) \(replies.map(\.body))")
        #expect(Set(replies.map(\.body)).count == 1, "\(replies.map(\.body))")
        let recordings = try serve.recordings(of: id)
        #expect(recordings.count == 1 && serve.files(in: "audio").count == 1)
        let recording = recordings.first?["id"] as? Int ?? -1
        // Every reply is the first answer: the server says so for each of the nine repeats.
        let output = try #require(serve.stop())
        #expect(output.stdout.components(separatedBy: "answered: recording \(recording),").count == 2, "\(output.stdout)")
        #expect(output.stdout.components(separatedBy: "sent again (recording \(recording))").count == 10, "\(output.stdout)")
        #expect(!output.stderr.contains("(409)"), "\(output.stderr)")
    }

    // MARK: A copy that fails

    @Test(.enabled(if: SmallDisk.isAvailable, "needs root and a container that may mount a tmpfs"))
    func aCopyOntoAFullDiskLeavesNothingBehindAndNamesTheFileThatFailed() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let audio = serve.binary.home.appendingPathComponent("audio")
        let disk = try SmallDisk(at: audio, bytes: 1_048_576)
        // Room for about a third of the answer: the copy starts, then the disk is full.
        let filler = disk.url.appendingPathComponent("filler")
        try runTool("dd", ["if=/dev/zero", "of=\(filler.path)", "bs=1024", "count=900", "status=none"])
        let answer = try serve.tone(seconds: 10)  // 320 kB
        for attempt in 1...3 {
            let reply = try serve.upload(token, answer, type: "audio/wav", key: "take-\(attempt)")
            #expect(reply.status == 500 && reply.body.contains("\"failed\""), "\(reply.status) \(reply.body)")
        }
        let left = serve.files(in: "audio").filter { $0 != filler.path }
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(try serve.recordings(of: id).isEmpty && serve.files(in: "incoming").isEmpty)
        #expect(try serve.row(id)["status"] as? String == "pending")

        // With room again, the same take is stored.
        try FileManager.default.removeItem(at: filler)
        let stored = try serve.upload(token, answer, type: "audio/wav", key: "take-4")
        #expect(stored.status == 200, "\(stored.body)")
        #expect(try serve.recordings(of: id).count == 1 && serve.files(in: "audio").count == 1)
        let output = try #require(serve.stop())
        // The log names the file that could not be written, under audio/, not the upload in incoming/.
        let failures = output.stderr.split(separator: "\n").filter { $0.contains("(500)") }
        #expect(failures.count == 3, "\(output.stderr)")
        #expect(failures.allSatisfy { $0.contains(audio.path + "/") && !$0.contains("/incoming/") }, "\(output.stderr)")
        withExtendedLifetime(disk) {}
    }

    // MARK: Timeouts

    @Test func idleAndDrippingConnectionsAreClosed() throws {
        let serve = try ServeHarness(["--idle-timeout", "1", "--upload-timeout", "3"])
        let (_, token) = try serve.assignment()

        // Connected and silent.
        let idle = try RawConnection(port: serve.port)
        #expect(idle.closedByServer(within: 4))

        // A request head sent a byte at a time never completes: closed like an idle one.
        let header = try RawConnection(port: serve.port)
        header.send("GET /a/\(token) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        var headerClosed = false
        let headerStart = Date()
        while Date().timeIntervalSince(headerStart) < 8 {
            if !header.send("a") || header.closedByServer(within: 0.3) { headerClosed = true; break }
        }
        #expect(headerClosed && Date().timeIntervalSince(headerStart) < 4, "\(Date().timeIntervalSince(headerStart)) s")

        // An upload whose body comes a byte at a time: each byte keeps the connection busy, but the
        // whole upload must arrive within the upload timeout.
        let body = try RawConnection(port: serve.port)
        body.send("POST /a/\(token)/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: drip\r\n"
            + "Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\n\r\n")
        var bodyClosed = false
        let bodyStart = Date()
        while Date().timeIntervalSince(bodyStart) < 12 {
            if !body.send("a") || body.closedByServer(within: 0.3) { bodyClosed = true; break }
        }
        #expect(bodyClosed && Date().timeIntervalSince(bodyStart) < 6, "\(Date().timeIntervalSince(bodyStart)) s")
        #expect(serve.files(in: "incoming").isEmpty)

        // The server still answers.
        #expect(try serve.request("/a/\(token)").status == 200)
    }

    @Test func withFewFileDescriptorsIdleConnectionsCannotLockEveryoneOut() throws {
        let serve = try ServeHarness(["--idle-timeout", "4"], launcher: ["prlimit", "--nofile=256", "--"])
        let (_, token) = try serve.assignment()
        // More idle connections than the server has descriptors.
        let idle = try (0..<300).map { _ in try RawConnection(port: serve.port) }
        Thread.sleep(forTimeInterval: 0.3)
        // Waiting is sleeping: no thread spins on a failing accept while they are held.
        let cpuBefore = try serve.serverCPUSeconds()
        Thread.sleep(forTimeInterval: 3)
        let cpu = try serve.serverCPUSeconds() - cpuBefore
        #expect(cpu < 0.5, "\(cpu) s of CPU in 3 s")
        // Once the idle ones time out, an ordinary request is served.
        let reply = try serve.request("/a/\(token)", ["--max-time", "60"])
        #expect(reply.status == 200)
        withExtendedLifetime(idle) {}
    }

    @Test func sigtermStopsWithinTheShutdownTimeoutWhateverAnUploadDoes() throws {
        let serve = try ServeHarness(["--upload-timeout", "600", "--idle-timeout", "600", "--shutdown-timeout", "2"])
        let (id, token) = try serve.assignment()
        let drip = try RawConnection(port: serve.port)
        drip.send("POST /a/\(token)/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: drip\r\n"
            + "Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: 100000\r\n\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"a.wav\"\r\n\r\n")
        Thread.sleep(forTimeInterval: 1)
        let process = try #require(serve.server?.process)
        let signalled = Date()
        process.terminate()
        while process.isRunning && Date().timeIntervalSince(signalled) < 15 {
            drip.send("a")
            Thread.sleep(forTimeInterval: 0.2)
        }
        let took = Date().timeIntervalSince(signalled)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        let output = try #require(serve.stop())
        #expect(took < 6, "still running \(took) s after SIGTERM")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try serve.recordings(of: id).isEmpty)
    }

    // MARK: Behind a reverse proxy

    @Test func behindATrustedProxyOneStrangerLocksOutNobody() throws {
        let serve = try ServeHarness(["--trusted-proxy", "127.0.0.1", "--requests-per-minute", "5"])
        let (_, token) = try serve.assignment()
        func get(_ path: String, from client: String) throws -> Int {
            try serve.request(path, ["-H", "X-Forwarded-For: \(client)"]).status
        }
        let stranger = "203.0.113.7", family = "198.51.100.2"
        let flood = try (0..<12).map { _ in try get("/a/garbage", from: stranger) }
        #expect(flood.prefix(5).allSatisfy { $0 == 404 } && flood.last == 429, "\(flood)")
        // The stranger's flood is the stranger's: another address behind the same proxy is served…
        #expect(try get("/a/\(token)", from: family) == 200)
        #expect(try get("/a/garbage-too", from: family) == 404)
        // …the right-most address the proxy did not add is the client, whatever the client claims…
        #expect(try get("/a/garbage", from: "\(family), \(stranger)") == 429)
        // …and unknown links never use up a real link's allowance, even from the stranger's address.
        #expect(try get("/a/\(token)", from: stranger) == 200)
        let output = try #require(serve.stop())
        #expect(output.stderr.contains(stranger) && !output.stderr.contains(token), "\(output.stderr)")
    }

    @Test func withoutATrustedProxyForwardedForIsIgnoredAndRealLinksStillWork() throws {
        let serve = try ServeHarness(["--requests-per-minute", "5"])
        let (_, token) = try serve.assignment()
        let flood = try (0..<8).map { index in try serve.request("/a/garbage", ["-H", "X-Forwarded-For: 203.0.113.\(index)"]).status }
        #expect(flood.last == 429, "\(flood)")  // a made-up X-Forwarded-For does not reset the count
        #expect(try serve.request("/a/\(token)").status == 200)
    }

    @Test func aLinkPastItsUploadsSaysTheRealWait() throws {
        let serve = try ServeHarness(["--requests-per-minute", "100000"])
        let (_, token) = try serve.assignment()
        let junk = serve.folder.path("junk.webm")
        try Data(String(repeating: "not audio\n", count: 50).utf8).write(to: junk)
        var last = try serve.upload(token, junk, key: "junk-0")
        for attempt in 1...20 where last.status != 429 { last = try serve.upload(token, junk, key: "junk-\(attempt)") }
        #expect(last.status == 429, "\(last.body)")
        // 20 uploads an hour: one more every 3 minutes.
        let retryAfter = try #require(last.headers["retry-after"].flatMap(Int.init))
        #expect((150...180).contains(retryAfter), "\(retryAfter)")
        #expect(last.body.contains("3 minutes"), "\(last.body)")
    }

    // MARK: Every interface

    @Test func listeningOnEveryInterfaceWarnsAndPrintsUsableLinks() throws {
        let folder = try TemporaryFolder("voicejournal-serve-any")
        let binary = VoicejournalBinary(home: folder.path("home"))
        _ = try binary.run(["journal", "create", "Family"])
        for (extra, link) in [([String](), "http://\(ProcessInfo.processInfo.hostName):"),
                              (["--public-url", "https://journal.example.org"], "https://journal.example.org/a/TOKEN")] {
            let running = try binary.start(["serve", "--host", "0.0.0.0", "--port", "0"] + extra)
            let deadline = Date().addingTimeInterval(20)
            while Date() < deadline && !running.stdoutSoFar.contains("Serving answers") && running.process.isRunning {
                Thread.sleep(forTimeInterval: 0.05)
            }
            running.signal(SIGTERM)
            let output = running.wait()
            #expect(output.stdout.contains("Serving answers") && output.stdout.contains(link), "\(output.stdout)")
            #expect(!output.stdout.contains("0.0.0.0") && !output.stdout.contains("[::]"), "\(output.stdout)")
            #expect(output.stderr.contains("warning:") && output.stderr.contains("https"), "\(output.stderr)")
        }
    }

    @Test func thePageSaysThatAPlainHTTPLinkNeedsHTTPS() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        let page = try serve.request("/a/\(token)").body
        #expect(page.contains("id=\"insecure\"") && page.contains("https"), "\(page)")
        let script = try serve.request("/assets/answer.js").body
        // Checked before anything else: on plain HTTP the browser hides the microphone API itself.
        let secure = try #require(script.range(of: "window.isSecureContext"))
        let unsupported = try #require(script.range(of: "$(\"unsupported\")"))
        #expect(secure.lowerBound < unsupported.lowerBound)
    }
}
