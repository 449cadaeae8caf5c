import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalTerminal

/// `voicejournal export`: journals as Markdown, the whole journal as JSON (for `import`),
/// or one recording's transcript as subtitles.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export journals as Markdown, the whole journal as JSON, or a recording as subtitles.",
        discussion: CommandHelp.export)

    @OptionGroup var global: GlobalOptions
    @Option(help: "md, json, srt, vtt or txt.") var format: JournalExport.Format = .md
    @Option(help: "Only this journal.", completion: .custom(LiveCompletions.journals)) var journal: String?
    @Option(help: "Only entries from this moment on (YYYY-MM-DD[THH:MM], today, yesterday).") var since: PointInTime?
    @Option(help: "Only entries up to this moment (a bare date includes that whole day).") var until: PointInTime?
    @Option(help: "The recording whose transcript to export (srt, vtt, txt).") var recording: Int64?
    @Option(help: "Write into this folder instead of stdout.") var out: String?
    @Flag(help: "With --out (md), copy each entry's audio into DIR/audio/ and link to the copy.") var withAudio = false
    @Flag(help: "With --out, replace export files that are already there.") var force = false

    func validate() throws {
        switch format {
        case .md:
            if recording != nil { throw ValidationError("--recording goes with --format srt or vtt") }
            if withAudio, out == nil { throw ValidationError("--with-audio needs --out DIR to copy the audio into") }
        case .json:
            if recording != nil || withAudio {
                throw ValidationError("--format json exports rows, for 'import'; --recording and --with-audio go with other formats "
                    + "(the journal with its audio, to restore: voicejournal backup FILE)")
            }
        case .srt, .vtt, .txt:
            guard recording != nil else { throw ValidationError("--format \(format.rawValue) needs --recording ID (see 'entry show', 'transcribe')") }
            if journal != nil || since != nil || until != nil || withAudio {
                throw ValidationError("--format \(format.rawValue) exports one recording: --journal, --since, --until and --with-audio go with md")
            }
        }
    }

    func run() async throws {
        let export = try JournalExport.make(format, of: global.openStoreForReading(), journal: journal, since: since?.date,
                                            until: until?.endOfPeriod, recording: recording,
                                            linksFrom: outFolder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                            copyAudio: withAudio, now: Now.date())
        guard let folder = outFolder else { return try export.print { print($0, terminator: "") } }
        let written = try export.write(into: folder, force: force) { print(TerminalText.escaped($0.path)) }
        if let line = written.copiedLine { print(line) }
        for notice in written.leftOutNotices { printNotice(notice) }
    }

    private var outFolder: URL? { out.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } }
}

extension JournalExport.Format: ExpressibleByArgument {}
