import Foundation
import Testing
import VoiceJournalTestSupport

/// Uploads crafted to make `serve` read what it must not: playlists and concat lists naming
/// local files, decompression bombs, cut-off files. Each is refused as what it is (400), and
/// nothing is stored, queued or opened besides the upload itself.
@Suite(.onTestThreads, .serialized) struct ServeHostileUploadTests {
    private static let notAudio = "That was not a recording that could be played. Please record your answer again."

    private func jobCount(_ serve: ServeHarness) throws -> Int {
        try CaptureDatabase.rows(home: serve.binary.home, "SELECT count(*) AS n FROM job").first?["n"] as? Int ?? -1
    }

    /// A short real FLAC, the kind of private recording a playlist would point at.
    private func realFLAC(_ serve: ServeHarness, name: String = "private") throws -> URL {
        let url = serve.folder.path("\(name).flac")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", url.path, "synth", "3", "sine", "440", "vol", "0.3"])
        return url
    }

    @Test func playlistsAndConcatListsAreRefusedAsNotAudioAndNothingTheyNameIsOpened() throws {
        let serve = try ServeHarness(["--transcribe"], environment: ["OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "OPENAI_API_KEY": "k"])
        let (id, token) = try serve.assignment()
        let flac = try realFLAC(serve)
        let pipe = try WatchedPipe(at: serve.folder.path("watched.flac"), feed: try Data(contentsOf: flac))
        defer { pipe.stop() }
        let missing = serve.folder.path("no-such-recording.flac")
        let hostile: [(String, Data)] = [
            ("hls-pipe", HostileAudio.hlsPlaylist(naming: pipe.url)),
            ("hls-flac", HostileAudio.hlsPlaylist(naming: flac)),
            ("hls-missing", HostileAudio.hlsPlaylist(naming: missing)),
            ("concat-pipe", HostileAudio.concatList(naming: pipe.url)),
            ("concat-flac", HostileAudio.concatList(naming: flac)),
        ]
        var bodies: Set<String> = []
        for (index, (name, bytes)) in hostile.enumerated() {
            let file = serve.folder.path("\(name).mkv")
            try bytes.write(to: file)
            let reply = try serve.request("/a/\(token)/answer", ["-F", "audio=@\(file.path);type=video/x-matroska;filename=answer.mkv",
                                                                 "-H", "Idempotency-Key: take-\(index)"])
            #expect(reply.status == 400, "\(name): \(reply.body)")
            #expect(reply.body.contains(Self.notAudio), "\(name): \(reply.body)")
            bodies.insert(reply.body)
        }
        // Whether the named file exists or not, the answer is the same: nothing to learn from it.
        #expect(bodies.count == 1, "\(bodies)")
        #expect(!pipe.wasOpened, "a file the playlist names was opened")
        #expect(try serve.recordings(of: id).isEmpty && serve.files(in: "audio").isEmpty)
        #expect(try jobCount(serve) == 0)
        #expect(try serve.row(id)["status"] as? String != "answered")
    }

    @Test func aLivePlaylistDoesNotHangTheRequestAndSigtermStillStopsTheServer() throws {
        let serve = try ServeHarness()
        let (_, token) = try serve.assignment()
        let flac = try realFLAC(serve)
        let pipe = try WatchedPipe(at: serve.folder.path("live.flac"), feed: try Data(contentsOf: flac))
        defer { pipe.stop() }
        let file = serve.folder.path("live.mkv")
        try HostileAudio.hlsPlaylist(naming: pipe.url, live: true).write(to: file)
        let started = Date()
        let reply = try serve.request("/a/\(token)/answer", ["--max-time", "20", "-F", "audio=@\(file.path);type=video/x-matroska;filename=answer.mkv"])
        #expect(reply.status == 400, "\(reply.body)")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(!pipe.wasOpened)

        let stopping = Date()
        let result = serve.stop(signal: SIGTERM)
        #expect(result?.status == 0, "\(result?.stderr ?? "")")
        #expect(Date().timeIntervalSince(stopping) < 5)
    }

    @Test(arguments: [false, true])
    func aTinyFLACDeclaringTenHoursIsRefusedInUnderASecondOfCPU(hideLength: Bool) throws {
        // With the length hidden, the decode runs to the longest answer and stops there: what
        // the bound proves is that it stops, not at 10 h. The tests run the debug build, whose
        // per-sample Swift is much slower than the release build's: at the default 180 s it
        // measured 1.02 s of CPU on this 2-core machine, so the test's serve takes up to 30 s.
        let serve = try ServeHarness(["--max-answer-seconds", "30"])
        let (id, token) = try serve.assignment()
        // 10 h declared (or, with the length hidden, 10 h of frames behind an "unknown" length).
        let bomb = try HostileAudio.silentFLAC(at: serve.folder.path("bomb.flac"), seconds: 36000, hideLength: hideLength)
        #expect(try FileManager.default.attributesOfItem(atPath: bomb.path)[.size] as? Int ?? 0 < 100_000)
        let pid = try #require(serve.server?.process.processIdentifier)
        let before = try #require(HostileAudio.cpuSeconds(of: pid))
        let reply = try serve.upload(token, bomb, type: "audio/flac")
        let after = try #require(HostileAudio.cpuSeconds(of: pid))
        #expect(reply.status == 400, "\(reply.body)")
        #expect(reply.body.contains("longer than"), "\(reply.body)")
        #expect(after - before < 1.0, "the server spent \(after - before) s of CPU on it")
        #expect(try serve.recordings(of: id).isEmpty)
    }

    @Test func aTruncatedWAVIsRefusedAsDamagedWith400() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let whole = serve.folder.path("whole.wav"), cut = serve.folder.path("cut.wav")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", whole.path, "synth", "4", "sine", "300", "vol", "0.4"])
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count / 3).write(to: cut)
        let reply = try serve.upload(token, cut, type: "audio/wav")
        #expect(reply.status == 400, "\(reply.body)")
        #expect(reply.body.contains(Self.notAudio), "\(reply.body)")
        #expect(try serve.recordings(of: id).isEmpty)
    }

    @Test func aTruncatedWebMIsRefusedAsDamagedNotStoredAsAWholeAnswer() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let whole = try serve.speechWebM("I grew up in a small house by the sea, near the harbour, with my two brothers.")
        let cut = serve.folder.path("cut.webm")
        let bytes = try Data(contentsOf: whole)
        try bytes.prefix(bytes.count / 5).write(to: cut)
        let reply = try serve.upload(token, cut, type: "audio/webm")
        #expect(reply.status == 400, "\(reply.body)")
        #expect(reply.body.contains(Self.notAudio), "\(reply.body)")
        #expect(try serve.recordings(of: id).isEmpty)
        // The whole file is still taken.
        let good = try serve.upload(token, whole, type: "audio/webm", key: "take-2")
        #expect(good.status == 200, "\(good.body)")
    }
}
