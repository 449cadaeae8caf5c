import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalSettings
import VoiceJournalTerminal

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Data folder (default: $VOICEJOURNAL_HOME, else $XDG_DATA_HOME/voicejournal).", valueName: "dir"))
    var home: String?

    @Option(name: .long, help: ArgumentHelp(
        "Config file (default: $XDG_CONFIG_HOME/voicejournal/config.toml, else ~/.config/voicejournal/config.toml).",
        valueName: "file"))
    var config: String?

    func validate() throws {
        if let config, config.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--config needs a file; leave the option out to use the default one")
        }
        // An empty value (an unset variable in a script: --home "$DIR") must not quietly mean the default journal.
        if let home, home.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--home needs a folder; leave the option out to use the default journal")
        }
    }

    /// The effective settings: `flags` (the command's own options), then the environment,
    /// then (for the public URL, unless `followingServe` is false) a serve running on the
    /// home, then the config file, then the defaults. A bad config file is an error (exit 3).
    func settings(_ flags: Settings.Flags = Settings.Flags(), followingServe: Bool = true) throws -> Settings {
        var flags = flags
        flags.home = home
        flags.config = config
        let settings = try Settings.load(flags: flags, environment: ProcessInfo.processInfo.environment, followingServe: followingServe)
        for notice in settings.notices { printNotice(notice) }
        return settings
    }

    /// Opens the journal store to save something (creating the home on first use), and
    /// completes recordings a killed recorder left unfinished, saying so on stderr.
    func openStore() throws -> JournalStore {
        try open(for: .writing)
    }

    /// Opens the journal store only to read it: works on a read-only or full disk, creates
    /// nothing, and reads a home without a journal as an empty one (saying so on stderr).
    func openStoreForReading() throws -> JournalStore {
        try open(for: .reading)
    }

    /// As `openStoreForReading`, without the notice for a home with no journal (the command says it its own way).
    func openStoreForReadingQuietly() throws -> JournalStore { try open(for: .reading, quietly: true) }

    private func open(for purpose: JournalStore.Purpose, quietly: Bool = false) throws -> JournalStore {
        let opened = try OpenedJournal.open(DataHome.resolve(flag: home), for: purpose, logger: Logger(label: "voicejournal.store"))
        for notice in opened.notices where !(quietly && opened.store.access == .empty) { printNotice(notice) }
        return opened.store
    }
}

/// Prints one line on stderr, prefixed with the program name and safe for the terminal.
func printNotice(_ line: String) {
    FileHandle.standardError.write(Data((stderrLine(line) + "\n").utf8))
}

/// A message as one stderr line: the program's name first, and whatever it quotes (file
/// names, servers' words) escaped, so it stays one line and the terminal obeys none of it.
func stderrLine(_ message: String) -> String {
    "voicejournal: " + TerminalText.escaped(message)
}
