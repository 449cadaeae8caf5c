import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// `voicejournal stats`.
struct Stats: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Entry counts, streaks, this month's calendar, the mood trend and \"on this day\".",
        discussion: CommandHelp.stats)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Option(help: "Only this journal.", completion: .custom(LiveCompletions.journals)) var journal: String?
    @Flag(help: "Only the entries made on this day in earlier years.") var onThisDay = false

    func run() async throws {
        let now = Now.date()
        let stats = try global.openStoreForReading().stats(journal: journal, now: now)
        if output.json { return try onThisDay ? printJSON(stats.onThisDay) : printJSON(stats) }
        if onThisDay { return print(JournalStats.onThisDayLines(stats.onThisDay, now: now).joined(separator: "\n")) }
        print(stats.lines(now: now, charset: .detect(), width: TerminalInfo.detectStandardOutput().width).joined(separator: "\n"))
    }
}
