import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalServer
import VoiceJournalSettings
import VoiceJournalTerminal

/// `voicejournal assign QUESTION_ID --person P`.
struct Assign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign", abstract: "Give a question to a person; they answer it with a recording.",
        discussion: CommandHelp.assign)
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The question's id (see 'question list').") var questionId: Int64
    @Option(help: "Who answers: a name, an id, or \"me\".") var person: String
    @OptionGroup var link: LinkOptions
    @Flag(help: "Email the question and its link to the person now (see 'assignment send').") var send = false

    func run() async throws {
        let settings = try link.settings(global), store = try global.openStore()
        // Mail's settings are checked before the assignment is made: nothing half done.
        let mail = send ? try AssignmentMailRun(store: store, settings: settings, environment: environment, now: Now.date()) : nil
        let assignment = try store.assign(questionId: questionId, to: person, now: Now.date())
        try output.show(assignment) {
            "Assigned question #\($0.questionId) to \(TerminalText.escaped($0.person)): assignment #\($0.id).\n"
                + "Link: \(TerminalText.escaped(settings.answerLink(token: $0.linkToken)))"
        }
        if let mail { try await printLines(mail.send(assignment.id, again: false)) }
    }
}

/// `--public-url` for the commands that print an assignment's link.
struct LinkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Where `serve` is reached from outside (default: $VOICEJOURNAL_PUBLIC_URL, else where the serve running on this home points its links, else the config file's public_url, else http://127.0.0.1:8787).",
                               valueName: "url"))
    var publicURL: String?

    /// Refuses a `--public-url` that is no http(s) URL (`serve` checks its own the same way).
    func validate() throws {
        if let problem = AnswerServer.Configuration.publicURLProblem(publicURL) { throw ValidationError(problem) }
    }

    /// The settings with this `--public-url`, for `Settings.answerLink`.
    func settings(_ global: GlobalOptions) throws -> Settings {
        var flags = Settings.Flags()
        flags.publicURL = publicURL
        return try global.settings(flags)
    }
}
