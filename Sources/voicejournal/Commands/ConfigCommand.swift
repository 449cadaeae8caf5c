import ArgumentParser
import Foundation
import VoiceJournalPages
import VoiceJournalSettings

/// `config show` — the effective settings and where each came from.
struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Show the effective settings and where each came from.",
        discussion: CommandHelp.config,
        subcommands: [Show.self],
        defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print the effective settings and where each came from (keys only as set/unset).")

        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @OptionGroup(title: "Flags to try (as `transcribe` or `record` would take them)") var transcription: TranscriptionFlags
        @OptionGroup(title: "Capture") var input: InputOptions
        @Option(help: "Journal for new entries.", completion: .custom(LiveCompletions.journals)) var journal: String?
        @Option(help: "Uploads at a time.") var jobs: Int?

        func validate() throws { if let jobs { try validateJobs(jobs) } }

        func run() async throws {
            var flags = transcription.flags(jobs: jobs)
            flags.journal = journal
            var input = input
            let settings = try input.resolve(flags, with: global)
            let shown = ShownSettings(settings, environment: ProcessInfo.processInfo.environment)
            try output.show(shown) { $0.lines().joined(separator: "\n") }
        }
    }
}
