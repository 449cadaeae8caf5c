import ArgumentParser
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal remind --due`: every reminder the config's policy says is due, from a timer.
struct Remind: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remind", abstract: "Send the reminders that are due.",
                                                    discussion: CommandHelp.remindDue)
    @OptionGroup var global: GlobalOptions
    @Flag(help: "Send every reminder due under [mail]'s policy (safe to run again: what went waits its turn).") var due = false
    @OptionGroup var link: LinkOptions

    func validate() throws {
        guard due else { throw ValidationError("say --due (one assignment's reminder: voicejournal assignment remind ID)") }
    }

    func run() async throws {
        try await printLines(AssignmentMailRun(store: global.openStore(), settings: link.settings(global), environment: environment,
                                               now: Now.date()).remindDue())
    }
}
