import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalSystem
import VoiceJournalTerminal

/// `voicejournal entry add|list|show|edit|delete`.
struct EntryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "entry", abstract: "Add, list, show, correct and delete journal entries.",
        subcommands: [Add.self, List.self, Show.self, Edit.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add a typed entry.",
            discussion: "The text is the words given, else --text (- reads standard input), else standard input when it is piped, else what you write in $VISUAL (else $EDITOR, else vi).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: ArgumentHelp("The entry's text (quoted, or as words).", valueName: "text")) var words: [String] = []
        @Option(help: "The entry's text; - reads it from standard input.") var text: String?
        @Option(help: "Journal to add to (default: the config file's, else Personal).", completion: .custom(LiveCompletions.journals)) var journal: String?
        @Option(help: "A title.") var title: String?
        @Option(help: "How you feel.") var mood: Mood?
        @Option(help: "What it is about.") var theme: Theme?
        @Option(help: "The kind of entry (voice entries are made by 'record').") var kind: TypedKind = .text
        @Option(help: ArgumentHelp("When it happened (default: now), e.g. 2026-11-20 or 2026-11-20T21:30.",
                                   valueName: "when")) var date: PointInTime?
        @Flag(help: "No line of encouragement (also: encourage = false under [defaults] in the config file).") var quiet = false

        /// The kinds a typed entry can have.
        enum TypedKind: String, ExpressibleByArgument, CaseIterable {
            case text, gratitude
        }

        func validate() throws {
            if !words.isEmpty, text != nil { throw ValidationError("give the text once: as words or with --text") }
        }

        func run() async throws {
            var flags = Settings.Flags()
            flags.journal = journal
            let store = try global.openStore(), settings = try global.settings(flags), journalName = settings.journal.value
            let given = words.isEmpty ? text : words.joined(separator: " ")
            let content = try await store.newEntryText(given, journal: journalName, editor: EntryEditor())
            let entry = try store.addEntry(journal: journalName, kind: kind == .text ? .text : .gratitude, title: title,
                                           content: content, mood: mood, theme: theme, createdAt: date?.date ?? Now.date())
            try AutoReflection.queue(entryId: entry.id, settings: settings, store: store)
            try output.show(entry) { "Added entry #\($0.id) to \(TerminalText.escaped($0.journal))." }
            if !output.json, !quiet, settings.encourage.value { printEncouragement(Encouragement.line(entryId: entry.id, mood: entry.mood)) }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List entries, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup var filters: EntryFilterOptions
        @Option(help: "Only this kind: voice, text or gratitude.") var kind: EntryKind?
        @Option(parsing: .unconditional, help: "At most this many entries.") var limit = 50
        @Flag(help: "With --json: each segment's words with their times (left out otherwise: they are most of a transcript's size).")
        var words = false

        func validate() throws {
            try validateLimit(limit)
            if words && !output.json { throw ValidationError("--words goes with --json (the table shows no words' times)") }
        }

        func run() async throws {
            let store = try global.openStoreForReading()
            let filter = filters.filter(kind: kind, limit: limit)
            guard output.json else { return print(JournalTables.entryList(try store.entries(filter))) }
            try JournalTables.writeEntryList(store, filter, words: words) { print($0, terminator: "") }
            print()
        }
    }

    /// `voicejournal entry show ID|last [--original]`.
    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show one entry in full: text or timed transcript, mood, theme, recording and waveform.",
            discussion: CommandHelp.entryShow)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The entry's id (see 'entry list'), or last.", completion: .custom(LiveCompletions.entries),
                  transform: EntryReference.init) var id: EntryReference
        @Flag(help: "Show the text as it was before it was corrected.") var original = false
        @Flag(help: "Also show what the transcript leaves out (with when and why) and the audio sent.") var raw = false

        func run() async throws {
            let view = try global.openStoreForReading().entryView(id)
            // The waveform reads the whole file: only for what shows it.
            let page = EntryPage(view, waveform: original ? nil : RecordingLines.waveform(of: view.recording))
            try output.show(page) { original ? $0.originalText() : $0.text(color: output.color, raw: raw) }
        }
    }

    /// `voicejournal entry edit ID [--text T]`.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "edit", abstract: "Correct an entry's text or transcript (a misheard name, a typo).",
            discussion: CommandHelp.entryEdit)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The entry's id (see 'entry list').", completion: .custom(LiveCompletions.entries)) var id: Int64
        @Option(help: "The corrected text (no editor is opened).") var text: String?

        func run() async throws {
            let correction = try await global.openStore().correctEntry(id: id, text: text, editor: EntryEditor(), now: Now.date())
            print(correction.changed ? "Corrected the \(correction.part.rawValue) of entry #\(id); the original: voicejournal entry show \(id) --original"
                                     : "No change to entry #\(id).")
        }
    }
}

/// Filters shared by `entry list` and `search`.
struct EntryFilterOptions: ParsableArguments {
    @Option(help: "Only this journal.", completion: .custom(LiveCompletions.journals)) var journal: String?
    @Option(help: "Only this mood.") var mood: Mood?
    @Option(help: "Only this theme.") var theme: Theme?
    @Option(help: "Only entries from this moment on (YYYY-MM-DD[THH:MM], today, yesterday, or back from now: 7d, 2w, 3m, 1y).")
    var since: PointInTime?
    @Option(help: "Only entries up to this moment (a bare date includes that whole day).") var until: PointInTime?
    @Option(help: ArgumentHelp("Only entries whose transcript is in this language (a code, e.g. en, de, pl; typed entries have none).",
                               valueName: "code"))
    var language: String?

    func validate() throws {
        if let language, let problem = SpokenLanguage.problem(with: language) { throw ValidationError(problem) }
    }

    func filter(kind: EntryKind?, limit: Int? = nil) -> EntryFilter {
        EntryFilter(journal: journal, mood: mood, theme: theme, kind: kind, since: since?.date, until: until?.endOfPeriod, limit: limit,
                    language: language.flatMap(SpokenLanguage.code(typed:)))
    }
}
