import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalTerminal

/// `voicejournal person add|list|set|delete`.
struct PersonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "person", abstract: "Add and list the people questions are assigned to.",
        discussion: "\"Myself\" always exists (you can also say \"me\").", subcommands: [Add.self, List.self, Set.self, Delete.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a person.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "Their name, e.g. \"Grandma Rose\".") var name: String
        @Option(help: "How they relate to you, e.g. grandmother, friend (default: other).") var relationship: String?
        @Option(help: "Their email address.") var email: String?
        @OptionGroup var spoken: LanguageOptions

        func validate() throws {
            guard relationship != Person.selfRelationship else { throw ValidationError("\"self\" is reserved for Myself; pick another relationship") }
        }

        func run() async throws {
            let person = try global.openStore().addPerson(name: name, relationship: relationship, email: email,
                                                          language: spoken.language, translate: spoken.translate)
            try output.show(person) { "Added \(TerminalText.escaped($0.name)) (#\(try $0.storedId()))." }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List people.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions

        func run() async throws { try output.show(try global.openStoreForReading().people(), JournalTables.people) }
    }

    /// `voicejournal person set NAME --language pl|--no-language --translate|--no-translate`.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the language a person answers in and whether their answers are translated to English.",
            discussion: CommandHelp.personLanguage)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The person: a name, an id or \"me\".") var person: String
        @OptionGroup var spoken: LanguageChangeOptions

        func run() async throws {
            let person = try global.openStore().changePerson(matching: person, language: spoken.change, translate: spoken.translate)
            try output.show(person) {
                "\(TerminalText.escaped($0.name)): language \(LanguageText.settings(language: $0.language, translate: $0.translate))."
            }
        }
    }
}
