import ArgumentParser
import VoiceJournal

/// `--language` and `--translate` as `journal create` and `person add` take them.
struct LanguageOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The language their recordings are spoken in, sent with each upload (a code Whisper knows, e.g. en, de, pl; default: detected).",
                               valueName: "code"))
    var language: String?
    @Flag(help: "Ask for an English translation of their recordings too.") var translate = false

    func validate() throws {
        if let language, let problem = SpokenLanguage.problem(with: language) { throw ValidationError(problem) }
    }
}

/// What `journal set` and `person set` change: the language (or none) and translation.
struct LanguageChangeOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Send uploads with this language (a code Whisper knows, e.g. en, de, pl).", valueName: "code"))
    var language: String?
    @Flag(help: "Send no language: the journal's (for a person), else the model detects it.") var noLanguage = false
    @Flag(inversion: .prefixedNo, help: "Ask (or stop asking) for an English translation too.") var translate: Bool?

    func validate() throws {
        if language != nil, noLanguage { throw ValidationError("--language and --no-language contradict each other; give one") }
        if language == nil, !noLanguage, translate == nil {
            throw ValidationError("nothing to change: give --language CODE, --no-language, --translate or --no-translate")
        }
        if let language, let problem = SpokenLanguage.problem(with: language) { throw ValidationError(problem) }
    }

    var change: LanguageChange { language.map(LanguageChange.set) ?? (noLanguage ? .clear : .keep) }
}
