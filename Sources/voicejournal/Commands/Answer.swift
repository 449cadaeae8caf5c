import ArgumentParser
import Foundation
import Recording
import Settings
import Store

/// `answer` — record the answer to an assignment, or attach an existing audio file as it.
struct Answer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Record (or attach) the answer to an assignment",
        discussion: """
            Without --file this records exactly like `record --assignment ID`. With --file the \
            audio (any format `meter FILE` draws, judged by its bytes; an empty, cut-off or \
            implausibly long file is refused) is copied into the journal's audio folder. Either \
            way the assignment is marked answered and the transcription queued. An answer sent \
            again with the same --idempotency-key (a retry after a lost reply) gets the first \
            recording back and stores nothing; without one, each attempt gets a fresh key.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The assignment to answer (see `voicejournal assignment list`).", valueName: "assignment-id"))
    var assignmentId: Int64

    @Option(help: ArgumentHelp("Attach this audio file instead of recording.", valueName: "audio"))
    var file: String?

    @Option(help: ArgumentHelp("A key naming this submission: sent again, it returns the first recording.", valueName: "key"))
    var idempotencyKey: String?

    @OptionGroup var capture: CaptureOptions

    @Flag(help: "Print the saved recording as JSON.")
    var json = false

    func validate() throws {
        if let key = idempotencyKey, !IdempotencyKey.isUsable(key) {
            throw ValidationError("--idempotency-key must be 1 to 200 printable characters")
        }
    }

    func run() async throws {
        let store = try global.openStore()
        // A key made here is new: only a key the user gave can find an earlier answer.
        let key = idempotencyKey ?? IdempotencyKey.fresh()
        if let given = idempotencyKey, let earlier = try store.earlierAnswer(assignmentId: assignmentId, idempotencyKey: given) {
            return try Self.finishEarlier(earlier, key: key, json: json)
        }
        guard let file else {
            var capture = capture
            _ = try capture.input.resolve(Settings.Flags(), with: global)
            let outcome = try await capture.record(owner: .assignment(assignmentId), store: store, idempotencyKey: key)
            return try RecordingReport.finish(outcome, json: json)
        }
        let attachment = try AnswerAttachment(file: URL(fileURLWithPath: file), assignmentId: assignmentId,
                                              idempotencyKey: key, store: store)
        // A large file takes a while to copy; say what is happening first.
        let notice = "copying \(attachment.source.path) (\(Self.size(attachment.sizeBytes))) into the journal"
        let completed = try await attachment.attach(now: Now.date()) { printNotice(notice) }
        if completed.isEarlierAnswer { return try Self.finishEarlier(completed, key: key, json: json) }
        try RecordingReport.finish(RecordingOutcome(recording: completed.recording, job: completed.job), json: json)
    }

    /// The answer saved before under the same key: said on stderr, printed like a new one.
    static func finishEarlier(_ earlier: CompletedRecording, key: String, json: Bool) throws {
        printNotice("this answer was saved before with the same idempotency key (\(key)): recording \(earlier.recording.id ?? 0); nothing new was stored")
        try RecordingReport.finish(RecordingOutcome(recording: earlier.recording, job: earlier.job), json: json)
    }

    /// "318.2 MB", "840 KB", "12 bytes".
    static func size(_ bytes: Int64) -> String {
        switch bytes {
        case 1_000_000...: String(format: "%.1f MB", Double(bytes) / 1_000_000)
        case 1000...: "\(bytes / 1000) KB"
        default: "\(bytes) bytes"
        }
    }
}
