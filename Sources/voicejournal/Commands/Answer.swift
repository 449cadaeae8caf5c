import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `answer` — record the answer to an assignment, or attach an existing audio file as it.
struct Answer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Record (or attach) the answer to an assignment",
        discussion: CommandHelp.answer)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("The assignment to answer (see `voicejournal assignment list`).", valueName: "assignment-id"))
    var assignmentId: Int64
    @Option(help: ArgumentHelp("Attach this audio file instead of recording.", valueName: "audio")) var file: String?
    @Option(help: ArgumentHelp("A key naming this submission: sent again, it returns the first recording.", valueName: "key"))
    var idempotencyKey: String?
    @OptionGroup var capture: CaptureOptions
    @Flag(help: "Print the saved recording as JSON.") var json = false

    func validate() throws {
        guard idempotencyKey.map(IdempotencyKey.isUsable) ?? true else {
            throw ValidationError("--idempotency-key must be 1 to 200 printable characters")
        }
    }

    func run() async throws {
        let store = try global.openStore()
        let submission = AnswerSubmission(assignmentId: assignmentId, idempotencyKey: idempotencyKey)
        if let earlier = try submission.earlier(in: store) { return try finish(earlier) }
        guard let file else {
            var capture = capture
            _ = try capture.input.resolve(Settings.Flags(), with: global)
            let take = try await capture.record(owner: .assignment(assignmentId), store: store, idempotencyKey: submission.idempotencyKey)
            return try RecordingReport.finish(take.outcome, json: json)
        }
        try finish(try await submission.attach(file: URL(fileURLWithPath: file), store: store, now: Now.date()) { printNotice($0) })
    }

    /// Says an answer saved before under the same key (on stderr), then prints it like a new one.
    private func finish(_ answer: AnswerSubmission.Saved) throws {
        if let notice = answer.notice { printNotice(notice) }
        try RecordingReport.finish(answer.outcome, json: json)
    }
}
