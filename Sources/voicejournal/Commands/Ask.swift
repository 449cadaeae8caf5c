import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `voicejournal ask "QUESTION"`: an answer from your own entries, streamed, each claim cited.
struct Ask: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask", abstract: "Ask your journal: an answer from your entries, each claim cited to a moment you can play.",
        discussion: CommandHelp.ask)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filters: EntryFilterOptions
    @Option(help: "Only answers given by this person (a name, an id or \"me\").") var person: String?
    @Argument(help: "The question.") var question: [String] = []
    @Flag(name: .customLong("continue"), help: "Continue the latest conversation (or --conversation's).") var continuing = false
    @Option(help: ArgumentHelp("Continue this conversation (see --list).", valueName: "id")) var conversation: Int64?
    @Flag(help: "List the conversations.") var list = false
    @Option(help: ArgumentHelp("Show a conversation's turns.", valueName: "id")) var show: Int64?
    @Option(help: ArgumentHelp("The chat server's OpenAI-style base URL, ending in /v1.", valueName: "url")) var chatURL: String?
    @Option(help: ArgumentHelp("The chat model to ask.", valueName: "name")) var chatModel: String?

    func validate() throws { if question.isEmpty == !(list || show != nil) { throw ValidationError("Give a question, or --list, or --show ID.") } }

    func run() async throws {
        if list || show != nil { return print(try AskRun.shown(show, store: global.openStoreForReading(), json: output.json)) }
        var (flags, run) = (Settings.Flags(), AskRun(question: question.joined(separator: " ")))
        (flags.chatURL, flags.chatModel, run.filter, run.person, run.json) = (chatURL, chatModel, filters.filter(kind: nil), person, output.json)
        run.continuing = conversation ?? (continuing ? 0 : nil)
        let result = try await run.run(settings: global.settings(flags), store: global.openStore(), environment: ProcessInfo.processInfo.environment,
                                       now: Now.date()) { FileHandle.standardOutput.write(Data($0.utf8)) }
        print(result.text)
    }
}
