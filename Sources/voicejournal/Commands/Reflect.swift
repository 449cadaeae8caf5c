import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal reflect ENTRY | --week [DATE] | --month [YYYY-MM]`: a chat model's
/// reflection on an entry or a period, checked and kept.
struct Reflect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reflect", abstract: "Ask a chat model to reflect on an entry, a week or a month; every claim is checked.",
        discussion: CommandHelp.reflect)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry's id (see 'entry list') or last; with --week a day of the week (YYYY-MM-DD, today, last), with --month YYYY-MM (or last).",
              completion: .custom(LiveCompletions.entries)) var entry: String?
    @Flag(help: "Reflect on a week, Monday to Sunday: this one, or the one holding the day given.") var week = false
    @Flag(help: "Reflect on a month: this one, or the one given.") var month = false
    @Option(help: ArgumentHelp("With --week or --month: only this journal's entries.", valueName: "name")) var journal: String?
    @Flag(help: "Ask for a new reflection even if there is one.") var again = false
    @Flag(help: "Take the suggested mood and theme where the entry has none.") var apply = false
    @Flag(help: "Print what would be sent; send nothing.") var dryRun = false
    @Option(help: ArgumentHelp("The chat server's OpenAI-style base URL, ending in /v1.", valueName: "url")) var chatURL: String?
    @Option(help: ArgumentHelp("The chat model to ask.", valueName: "name")) var chatModel: String?

    func run() async throws {
        var flags = Settings.Flags()
        (flags.chatURL, flags.chatModel) = (chatURL, chatModel)
        var run = try ReflectRun(argument: entry, week: week, month: month, journal: journal, apply: apply)
        (run.again, run.apply, run.dryRun, run.json) = (again, apply, dryRun, output.json)
        let store = try dryRun ? global.openStoreForReading() : global.openStore()
        let result = try await run.run(settings: try global.settings(flags), store: store, environment: ProcessInfo.processInfo.environment, now: Now.date())
        print(result.text)
        if result.failed { throw ExitCode.failure }
    }
}
