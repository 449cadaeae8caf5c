import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal reflect ENTRY`: a chat model's reflection on an entry, checked and kept.
struct Reflect: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reflect", abstract: "Ask a chat model to reflect on an entry; every claim is checked against it.",
        discussion: CommandHelp.reflect)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The entry's id (see 'entry list'), or last.", completion: .custom(LiveCompletions.entries),
              transform: EntryReference.init) var entry: EntryReference
    @Flag(help: "Ask for a new reflection even if the entry has one.") var again = false
    @Flag(help: "Take the suggested mood and theme where the entry has none.") var apply = false
    @Flag(help: "Print what would be sent; send nothing.") var dryRun = false
    @Option(help: ArgumentHelp("The chat server's OpenAI-style base URL, ending in /v1.", valueName: "url")) var chatURL: String?
    @Option(help: ArgumentHelp("The chat model to ask.", valueName: "name")) var chatModel: String?

    func run() async throws {
        var flags = Settings.Flags()
        (flags.chatURL, flags.chatModel) = (chatURL, chatModel)
        var run = ReflectRun(entry: entry)
        (run.again, run.apply, run.dryRun, run.json) = (again, apply, dryRun, output.json)
        let store = try dryRun ? global.openStoreForReading() : global.openStore()
        let result = try await run.run(settings: try global.settings(flags), store: store, environment: ProcessInfo.processInfo.environment, now: Now.date())
        print(result.text)
        if result.failed { throw ExitCode.failure }
    }
}
