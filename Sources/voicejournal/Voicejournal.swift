import ArgumentParser
import VoiceJournalPages

/// The `voicejournal` command: records, transcribes and keeps a voice journal.
struct Voicejournal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voicejournal",
        abstract: "Record your voice, transcribe it with Whisper, and keep a searchable journal.",
        discussion: CommandHelp.voicejournal,
        version: "0.1.0",
        subcommands: [
            Record.self, Play.self, Meter.self, Devices.self,
            Transcribe.self, Queue.self,
            JournalCommand.self, EntryCommand.self,
            PersonCommand.self, QuestionCommand.self, Assign.self, AssignmentCommand.self, Answer.self, Serve.self,
            VocabularyCommand.self, Search.self, Reflect.self, Ask.self, Stats.self, NudgeCommand.self,
            Export.self, Import.self, Backup.self, Restore.self,
            MailCommand.self, Remind.self, ConfigCommand.self,
        ]
    )

    // Declared here too so `voicejournal --home DIR <command>` (and --config) parses; each command reads its own copy.
    @OptionGroup var global: GlobalOptions
}
