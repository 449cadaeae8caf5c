import ArgumentParser

/// The `voicejournal` command: records, transcribes and keeps a voice journal.
struct Voicejournal: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "voicejournal",
        abstract: "Record your voice, transcribe it with Whisper, and keep a searchable journal.",
        discussion: """
            Data lives in --home DIR, else $VOICEJOURNAL_HOME, else $XDG_DATA_HOME/voicejournal \
            (~/.local/share/voicejournal). Transcription uses $OPENAI_API_KEY and \
            $OPENAI_BASE_URL (any OpenAI-compatible server, e.g. voicejournal-whisper-server).

            Settings come from the flag, else the environment, else the config file \
            ($XDG_CONFIG_HOME/voicejournal/config.toml, or --config FILE), else the default: \
            `voicejournal config show` prints them and where each came from.

            Exit codes: 0 success, 1 some work failed, 2 usage error, 3 configuration error, \
            130 interrupted.
            """,
        version: "0.1.0",
        subcommands: [
            Record.self, Play.self, Meter.self, Devices.self,
            Transcribe.self, Queue.self,
            JournalCommand.self, EntryCommand.self,
            PersonCommand.self, QuestionCommand.self, Assign.self, AssignmentCommand.self, Answer.self, Serve.self,
            VocabularyCommand.self, Search.self, Reflect.self, Ask.self, Stats.self, NudgeCommand.self,
            Export.self, Import.self, Backup.self, Restore.self,
            ConfigCommand.self,
        ]
    )

    // Declared here too so `voicejournal --home DIR <command>` (and --config) parses; each command reads its own copy.
    @OptionGroup var global: GlobalOptions
}
