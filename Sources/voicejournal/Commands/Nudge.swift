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
        let settings = try global.settings(), store = try global.openStore()
        // Without a desktop to show it, the nudge is an email through [mail] (or says how to set that up).
        let run = NudgeRun(table: settings.file?.nudge, environment: environment,
                           sendEmail: NudgeMail.sender(settings: settings, store: store, environment: environment))
        let done = try await run.run(store: store, now: Now.date())
        try output.show(done.result) { _ in done.text }
    }
}
