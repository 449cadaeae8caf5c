import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalTerminal

/// `play` — listen to an entry, an answer, a search hit or any audio file through ALSA.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Listen to an entry, an answer, a search hit or an audio file",
        discussion: CommandHelp.play)

    @OptionGroup var global: GlobalOptions
    @Argument(help: ArgumentHelp("An entry's number, or an audio file.", valueName: "id-or-file")) var target: String?
    @Option(help: ArgumentHelp("Play this recording (see `entry show`, `search`).", valueName: "id")) var recording: Int64?
    @Option(help: ArgumentHelp("Play the answer to this assignment.", valueName: "id")) var assignment: Int64?
    @Option(help: ArgumentHelp("Play the best search hit, from a second before its words.", valueName: "words")) var search: String?
    @Option(help: ArgumentHelp("Start here: seconds or mm:ss (default: the start, or the search hit).", valueName: "time")) var at: String?
    @Option(help: ArgumentHelp("Stop here: seconds or mm:ss (default: the end).", valueName: "time")) var to: String?
    @Option(help: ArgumentHelp("ALSA playback device: default, hw:0,0, plughw:..., a name from ~/.asoundrc (see `voicejournal devices --playback`).",
                               valueName: "pcm")) var device = "default"
    @Flag(help: "Print what was played as JSON when it ends.") var json = false

    func validate() throws {
        let given = [target != nil, recording != nil, assignment != nil, search != nil].filter { $0 }.count
        if given == 0 { throw ValidationError("say what to play: an entry's number, a file, --recording, --assignment or --search") }
        if given > 1 { throw ValidationError("play one thing at a time: an entry's number or a file, --recording, --assignment or --search") }
        if let search, search.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--search needs words to look for") }
        if let target, target.isEmpty { throw ValidationError("an empty name is not a file; give an entry's number or a path") }
        let start = try Self.time(at, "--at"), end = try Self.time(to, "--to")
        if let end, end <= start ?? 0 {
            throw ValidationError(start == nil ? "--to \(TerminalText.escaped(to ?? "")) plays nothing: it must come after the start"
                                               : "--to must come after --at")
        }
        if device.isEmpty { throw ValidationError("--device needs a name (see `voicejournal devices --playback`)") }
    }

    /// A time given with `flag`, in seconds.
    static func time(_ text: String?, _ flag: String) throws -> Double? {
        guard let text else { return nil }
        guard let seconds = Clock.parse(text) else {
            throw ValidationError("\(flag) \(TerminalText.escaped(text)): give seconds (291, 291.5) or a clock (4:51, 1:02:03)")
        }
        return seconds
    }

    // Not async: the player runs on the main thread, and a command that starts no task starts
    // none of Swift's concurrency threads either (a tenth of play's start-up).
    func run() throws {
        let what = try PlayTarget.named(target, recording: recording, assignment: assignment, search: search,
                                        openStore: global.openStoreForReading)
        try playTarget(what, at: Self.time(at, "--at"), to: Self.time(to, "--to"), device: device, json: json)
    }
}

/// Plays `target` (see `PlayTarget.play`), prints the report with `json`; a signal exits 130
/// after the report, a file cut short while it played is failed work.
func playTarget(_ target: PlayTarget, at: Double?, to: Double?, device: String, json: Bool) throws {
    let ending = try target.play(at: at, to: to, device: device)
    if json { try printJSON(ending.report) }
    if ending.interrupted { throw ExitCode(.interrupted) }
    if let error = ending.cutShort { throw error }
}
