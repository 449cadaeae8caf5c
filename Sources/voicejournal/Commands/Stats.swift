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
        discussion: """
            Days are counted in your local time zone; a streak still counts today if yesterday had \
            an entry. The mood chart fits the terminal's width (or $COLUMNS, else 80); it and the \
            calendar use Unicode blocks when the locale is UTF-8 (LC_ALL, LC_CTYPE, LANG), plain \
            ASCII otherwise. Audio sent is what was uploaded for transcription (chunks, live pieces \
            and re-sends included), summed over the transcripts that counted it; left out is those \
            recordings' length less what was sent for them (pauses shortened, silence never sent), \
            never below 0. --json: audioSentSeconds, audioLeftOutSeconds and resends.
            """)
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
