import ArgumentParser
import Foundation
import Pipeline
import Store

/// `answer` — record the answer to an assignment, or attach an existing audio file as it.
struct Answer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Record (or attach) the answer to an assignment",
        discussion: """
            Without --file this records exactly like `record --assignment ID`. With --file the \
            audio (any format libsndfile reads) is copied into the journal's audio folder. Either \
            way the assignment is marked answered and the transcription queued.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The assignment to answer (see `voicejournal assignment list`).", valueName: "assignment-id"))
    var assignmentId: Int64

    @Option(help: ArgumentHelp("Attach this audio file instead of recording.", valueName: "audio"))
    var file: String?

    @OptionGroup var capture: CaptureOptions

    @Flag(help: "Print the saved recording as JSON.")
    var json = false

    func run() async throws {
        let store = try global.openStore()
        guard let file else {
            var capture = capture
            var flags = Settings.Flags()
            capture.input.apply(to: &flags)
            capture.input.use(try global.settings(flags))
            let outcome = try await capture.record(owner: .assignment(assignmentId), store: store)
            return try RecordingReport.finish(outcome, json: json)
        }
        let attachment = try AnswerAttachment(file: URL(fileURLWithPath: file), assignmentId: assignmentId, store: store)
        // A large file takes a while to copy; say what is happening first.
        let notice = "copying \(attachment.source.path) (\(Self.size(attachment.sizeBytes))) into the journal"
        let completed = try await attachment.attach { printNotice(notice) }
        try RecordingReport.finish(RecordingOutcome(recording: completed.recording, job: completed.job), json: json)
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
