import VoiceJournalTerminal
import Testing

/// The sentences and tables `transcribe` and `queue run` print, and the progress lines.
@Suite struct RunTextTests {
    struct Figures: EndpointTableRow {
        enum State: String { case up, dropped }
        var endpoint: String
        var workers = 2
        var files = 3
        var audioSeconds = 75.0
        var failures = 0
        var emptyAnswers = 0
        var medianLatency: Double? = 0.5
        var state = State.up
        var problem: String?
    }

    @Test func summarySentences() {
        #expect(RunText.batchSummary(files: 3, done: 3, failed: 0, alreadyDone: 0, skipped: 4, seconds: 2)
                == "Transcribed 3 of 3 files (0 failed, 4 skipped) in 0:02.")
        #expect(RunText.batchSummary(files: 1, done: 0, failed: 1, alreadyDone: 2, skipped: 0, seconds: 61)
                == "Transcribed 0 of 1 file (1 failed, 2 already done before, 0 skipped) in 1:01.")
        #expect(RunText.queueSummary(transcribed: 3, failed: 0, seconds: 2) == "Transcribed 3 files, 0 failed, in 0:02.")
        #expect(RunText.queueSummary(transcribed: 1, failed: 1, seconds: 0) == "Transcribed 1 file, 1 failed, in 0:00.")
        #expect(RunText.queuedOnly(queued: 3, alreadyDone: 1, skipped: 2)
                == "Queued 3 files (1 already transcribed), skipped 2. Run `voicejournal queue run` to transcribe them.")
        #expect(RunText.queuedOnly(queued: 1, alreadyDone: 0, skipped: 0) == "Queued 1 file. Run `voicejournal queue run` to transcribe them.")
    }

    @Test func linesQuotingPathsStayOneLine() {
        #expect(RunText.skipped(path: "/a/notes.txt", reason: "not audio") == "skipped /a/notes.txt: not audio")
        #expect(!RunText.skipped(path: "/a/x\ny.wav", reason: "not audio").contains("\n"))
        #expect(RunText.failure(path: "/a/b.wav", message: "HTTP 400") == "failed: /a/b.wav: HTTP 400")
    }

    @Test func theEndpointTableExplainsUploadErrorsOnlyWhenThereAreSome() {
        let calm = RunText.endpointTable([Figures(endpoint: "http://a/v1"), Figures(endpoint: "http://b/v1", medianLatency: nil)])
        #expect(calm.hasPrefix("ENDPOINT"))
        #expect(calm.contains("UPLOAD ERRORS") && !calm.contains("went back to the queue"))
        #expect(calm.contains("1:15") && calm.contains("0.50 s"))
        let rough = RunText.endpointTable([Figures(endpoint: "http://a/v1", failures: 2, emptyAnswers: 1, state: .dropped, problem: "key refused")])
        #expect(rough.contains("2 (1 empty)") && rough.contains("dropped: key refused"))
        #expect(rough.hasSuffix("(files that failed for good are counted as failed above)."))
    }

    @Test func offATerminalEachFileIsOneLineCountedAgainstTheRun() {
        var progress = RunProgress(total: 2, endpoints: 1, tty: false)
        #expect(progress.chunksDone(jobId: 1, path: "/a.wav", done: 0, total: 3, counted: true) == "split /a.wav into 3 chunks\n")
        #expect(progress.chunksDone(jobId: 1, path: "/a.wav", done: 1, total: 3, counted: true) == "chunk 1/3 of /a.wav done\n")
        #expect(progress.progress.chunksTotal == 3)
        #expect(progress.transcribed(jobId: 1, path: "/a.wav", seconds: 1.25, counted: true) == "[1/2] done /a.wav (1.3 s)\n")
        #expect(progress.transcribed(jobId: 9, path: "/live.wav", seconds: 1, counted: false) == "done /live.wav (1.0 s)\n")
        #expect(progress.failed(jobId: 2, path: "/b.wav", message: "HTTP 400", counted: true) == "[2/2] failed /b.wav: HTTP 400\n")
        #expect(progress.progress.chunksTotal == 0 && progress.progress.finished == 2)
        #expect(progress.bar(elapsed: 1, width: 80, color: false) == nil)
        #expect(progress.endpointDown("http://a/v1", message: "cannot connect", retryingFor: 30)
                == "voicejournal: cannot connect; pausing all uploads and trying again for up to 30 s\n")
        #expect(progress.endpointBack("http://a/v1") == "voicejournal: the server answers again; resuming uploads\n")
    }

    @Test func onATerminalLinesGoAboveTheBarAndPoolsNameTheirEndpoint() {
        var progress = RunProgress(total: 4, endpoints: 2, tty: true)
        #expect(progress.transcribed(jobId: 1, path: "/a.wav", seconds: 1, counted: true) == nil)
        progress.reduceTotal(by: 2)
        #expect(progress.progress.total == 2)
        #expect(progress.endpointBack("http://a/v1") == ANSI.redrawLine + "voicejournal: endpoint http://a/v1 answers again; it takes uploads again\n")
        let bar = progress.bar(elapsed: 10, width: 80, color: false)
        #expect(bar?.hasPrefix(ANSI.redrawLine + "[") == true)
        #expect(bar?.contains("1/2") == true)
    }
}

/// What `queue status` prints.
@Suite struct QueueTextTests {
    @Test func countsThenRunningJobsThenAdvice() {
        let text = QueueText.status(queued: 2, running: 1, done: 5, failed: 1, cancelled: 0,
                                    runningJobs: [(7, "/a/b.wav", 2, "http://a/v1")], nextDueIn: 90)
        #expect(text == """
            queued 2 · running 1 · done 5 · failed 1 · cancelled 0
              running 7\t/a/b.wav (chunk 2)\ton http://a/v1
            next queued job is due in 1:30 (backoff)
            see `voicejournal queue list --state failed`; retry with `voicejournal queue retry --failed`
            """)
        let many = QueueText.status(queued: 0, running: 25, done: 0, failed: 0, cancelled: 0,
                                    runningJobs: (1...25).map { (Int64($0), "/f\($0).wav", nil, nil) }, nextDueIn: nil)
        #expect(many.split(separator: "\n").count == 1 + QueueText.runningShown + 1)
        #expect(many.contains("on an unnamed endpoint") && many.hasSuffix("… and 5 more running (`queue status --json` lists them all)"))
    }
}
