import Foundation
import Testing
import VoiceJournalTestSupport

/// `serve`'s smaller promises: broken HTTP is a 400, a withdrawn link answers in JSON the page
/// can show, a refused key pauses transcription rather than ending it, HEAD works, a bad
/// address is one line, refusals are logged with the client's address and never the token,
/// the page says what went wrong, and one link cannot hold the disk.
@Suite(.onTestThreads, .serialized) struct ServeEdgeTests {
    @Test func malformedChunkedEncodingGets400() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let connection = try RawConnection(port: serve.port)
        connection.send("POST /a/\(token)/answer HTTP/1.1\r\nHost: 127.0.0.1\r\nIdempotency-Key: chunky\r\n"
            + "Content-Type: multipart/form-data; boundary=XyZ\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\n--XyZ\r\nzz-not-a-size\r\nhello\r\n0\r\n\r\n")
        let response = connection.response(within: 10)
        #expect(response.hasPrefix("HTTP/1.1 400"), "\(response)")
        #expect(try serve.recordings(of: id).isEmpty && serve.files(in: "incoming").isEmpty)
    }

    @Test func anAnswerInFlightWhenItsQuestionIsDeletedGetsAJSONWithdrawnReply() throws {
        let serve = try ServeHarness()
        let (questionId, _, token) = try serve.question()
        let answer = try serve.tone(seconds: 10)  // 320 kB: ~3 s at the pace below
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let body = serve.folder.path("withdrawn-body")
        process.arguments = ["curl", "-s", "-o", body.path, "-w", "%{http_code} %{content_type}", "--limit-rate", "100k",
                             "--max-time", "60", "-H", "Idempotency-Key: late", "-F", "audio=@\(answer.path);type=audio/wav",
                             serve.base + "/a/\(token)/answer"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1)
        let deleted = try serve.binary.run(["question", "delete", "\(questionId)", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        process.waitUntilExit()
        let reply = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let text = (try? String(contentsOf: body, encoding: .utf8)) ?? ""
        #expect(reply == "404 application/json" || reply == "410 application/json", "\(reply) \(text)")
        #expect(text.contains("withdrawn"), "\(text)")
        // The link sent again, now unknown: the same JSON for the page, not an HTML page it cannot read.
        let again = try serve.upload(token, answer, type: "audio/wav", key: "late-2")
        #expect(again.status == 404 && again.headers["content-type"] == "application/json" && again.body.contains("withdrawn"),
                "\(again.status) \(again.body)")
        #expect(serve.files(in: "audio").isEmpty && serve.files(in: "incoming").isEmpty)
    }

    @Test func aRefusedKeyPausesTranscriptionUntilTheEndpointAcceptsAgain() throws {
        // Each file's first upload is refused with 401, as a key would be while it is being rotated.
        let whisper = try StubWhisperServer(rules: [.init(responses: [.error(status: 401, code: "invalid_api_key",
                                                                             message: "Incorrect API key provided")])],
                                          expectedKey: "sk-test-rotating")
        let serve = try ServeHarness(["--transcribe", "--jobs", "1"], environment: [
            "OPENAI_BASE_URL": whisper.baseURL, "OPENAI_API_KEY": "sk-test-rotating", "VOICEJOURNAL_RETRY_BASE": "0.1",
            "VOICEJOURNAL_SERVE_RETRY_SECONDS": "1",
        ])
        let (id, token) = try serve.assignment()
        #expect(try serve.upload(token, try serve.speechWebM()).status == 200)
        let recording = try #require(try serve.recordings(of: id).first?["id"] as? Int)
        var job: [String: Any] = [:]
        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline {
            job = try CaptureDatabase.rows(home: serve.binary.home, "SELECT * FROM job WHERE recordingId = ?", ["\(recording)"]).first ?? [:]
            if job["state"] as? String == "done" { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let output = try #require(serve.stop())
        #expect(job["state"] as? String == "done", "\(job) \(output.stdout) \(output.stderr)")
        #expect(output.stderr.contains("transcription paused"), "\(output.stderr)")
        #expect(!output.stderr.contains("sk-test-rotating") && !output.stdout.contains("sk-test-rotating"))
    }

    @Test func headOnALinkIsItsPageWithoutTheBody() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        func head(_ path: String) throws -> String {
            let connection = try RawConnection(port: serve.port)
            connection.send("HEAD \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return connection.response(within: 10)
        }
        let page = try head("/a/\(token)")
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page)")
        #expect(page.lowercased().contains("content-type: text/html") && page.contains("default-src 'none'"), "\(page)")
        #expect(page.hasSuffix("\r\n\r\n") && !page.contains("<!doctype"), "a body came: \(page)")
        #expect(try head("/a/\(String(token.reversed()))").hasPrefix("HTTP/1.1 404"))
    }

    @Test func anAddressThatIsNotThisMachinesIsOneLineAndExit3() throws {
        let folder = try TemporaryFolder("voicejournal-serve-host")
        let binary = VoicejournalBinary(home: folder.path("home"))
        // A name that cannot be resolved, refused by the resolver itself (a label over 63 characters): no DNS query leaves.
        for host in [String(repeating: "a", count: 70) + ".invalid", "192.0.2.1"] {
            let result = try binary.run(["serve", "--host", host, "--port", "0"])
            #expect(result.status == 3, "\(host): \(result.status) \(result.stderr)")
            let lines = result.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines.first?.hasPrefix("voicejournal: ") == true, "\(result.stderr)")
            #expect(!result.stderr.contains("SocketAddressError"), "\(result.stderr)")
        }
    }

    @Test func refusalsAndRateLimitsAreLoggedWithTheAddressAndNeverTheToken() throws {
        let serve = try ServeHarness(["--requests-per-minute", "3"])
        let (id, token) = try serve.assignment()
        let text = serve.folder.path("notes.webm")
        try Data(String(repeating: "not audio at all\n", count: 200).utf8).write(to: text)
        #expect(try serve.upload(token, text).status == 400)
        let statuses = try (0..<6).map { _ in try serve.request("/a/nothing-\(UUID().uuidString)").status }
        #expect(statuses.last == 429, "\(statuses)")
        let output = try #require(serve.stop())
        let refused = output.stderr.split(separator: "\n").filter { $0.contains("assignment #\(id)") && $0.contains("(400)") }
        #expect(refused.count == 1 && refused.allSatisfy { $0.contains("127.0.0.1") }, "\(output.stderr)")
        let limited = output.stderr.split(separator: "\n").filter { $0.contains("429") }
        #expect(!limited.isEmpty && limited.allSatisfy { $0.contains("127.0.0.1") }, "\(output.stderr)")
        #expect(!output.stderr.contains(token) && !output.stdout.contains(token))
    }

    @Test func thePageSaysWhatWentWrongAndGivesUpOnAStalledUpload() throws {
        let serve = try ServeHarness()
        let script = try serve.request("/assets/answer.js").body
        // No microphone is not a permission problem.
        #expect(script.contains("NotFoundError") && script.contains("No microphone was found"), "\(script)")
        // An upload that stalls ends with a message and the Send button back.
        #expect(script.contains("request.timeout") && script.contains("request.ontimeout"), "\(script)")
    }

    @Test func oneLinkCannotHoldMoreThanTwoUploadsWorthOfDisk() throws {
        let serve = try ServeHarness(["--max-upload-bytes", "1000000", "--requests-per-minute", "100000"])
        let (_, token) = try serve.assignment()
        let answer = try serve.tone(seconds: 28)  // 896 kB: nine tenths of the cap
        let replies = try serve.parallelUploads(token, answer, count: 4, key: { "take-\($0)" }, type: "audio/wav",
                                                extra: ["--limit-rate", "300k"])
        let statuses = replies.map(\.status)
        #expect(statuses.filter { $0 == 429 }.count >= 2, "\(statuses) \(replies.map(\.body))")
        #expect(statuses.contains(200), "\(statuses)")
        #expect(serve.files(in: "incoming").isEmpty)
    }
}
