import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSystem

/// `voicejournal search QUERY`.
struct Search: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search", abstract: "Search entries and transcripts, best match first.",
        discussion: CommandHelp.search)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var filters: EntryFilterOptions
    @Option(help: "Only answers given by this person (a name, an id or \"me\").") var person: String?
    @Option(help: "Only this kind: voice, text or gratitude.") var kind: EntryKind?
    @Argument(help: "Words to look for.") var query: [String]
    @Option(parsing: .unconditional, help: "At most this many results.") var limit = 20
    @Flag(help: "Then play the best match that lies in a recording, from a second before it.") var play = false
    @Option(help: "With --play: the ALSA playback device (see `voicejournal devices --playback`).") var device = "default"

    func validate() throws {
        try validateLimit(limit)
        if play, output.json {
            throw ValidationError("--play and --json cannot go together; for what was played use: voicejournal play --search WORDS --json")
        }
    }

    func run() async throws {
        let bold = output.color
        let store = try global.openStoreForReading()
        let words = query.joined(separator: " ")
        let hits = try store.search(words, filter: filters.filter(kind: kind), person: person, limit: limit,
                                    highlight: SearchResults.highlight(bold: bold),
                                    timeLimit: SearchTimeLimit.resolve(environment: ProcessInfo.processInfo.environment))
        try output.show(SearchResults.rows(hits)) { SearchResults.text($0.map(\.hit), bold: bold) }
        guard play else { return }
        let target = try PlayTarget.best(of: hits, for: words, in: store), device = device
        try await DedicatedThread.run(name: "voicejournal play") { try playTarget(target, at: nil, to: nil, device: device, json: false) }
    }
}
