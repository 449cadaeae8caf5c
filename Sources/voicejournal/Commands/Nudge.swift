import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal nudge`: a reminder to journal when nothing is in the journal today (its
/// timer, voicejournal-nudge.timer, runs it in the evening).
struct NudgeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nudge", abstract: "Remind you to journal, once a day at most, when nothing is in the journal today.",
        discussion: CommandHelp.nudge)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions

    func run() async throws {
        let settings = try global.settings()
        // No mail sender yet: the email fallback says so (exit 3) and records nothing.
        let run = NudgeRun(table: settings.file?.nudge, environment: ProcessInfo.processInfo.environment) { _, _ in
            throw NudgeError.mailNotSetUp
        }
        let done = try await run.run(store: try global.openStore(), now: Now.date())
        try output.show(done.result) { _ in done.text }
    }
}
