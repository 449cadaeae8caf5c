import ArgumentParser
import Audio
import Foundation
import Intake
import Store
import Terminal

/// `voicejournal export`: journals as Markdown, the whole journal as JSON (for `import`),
/// or one recording's transcript as subtitles.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export journals as Markdown, the whole journal as JSON, or a recording as subtitles.",
        discussion: """
            md (the default): one document per journal, each entry with its date, mood, theme, text \
            or transcript and a relative link to its audio; answered questions follow. With --out \
            DIR, one file per journal (DIR/<journal>.md, mode 0600); --with-audio copies the audio \
            into DIR/audio/ and links to the copies: only files that still are their recording \
            (size and SHA-256 as recorded); any other is left out and named on stderr.

            json: everything (journals, people, questions, assignments, entries, recordings, \
            transcripts with segments, jobs), table by table; 'voicejournal import FILE' reads it \
            back into an empty data folder. --journal, --since and --until keep a part of it that \
            imports on its own (rows that refer to rows left out are left out too). With --out DIR \
            it is written to DIR/voicejournal.json.

            srt, vtt: the transcript of one recording (--recording ID) as subtitles.

            Files already in DIR are left alone unless --force is given.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case md, json, srt, vtt }

    @OptionGroup var global: GlobalOptions
    @Option(help: "md, json, srt or vtt.") var format: Format = .md
    @Option(help: "Only this journal.") var journal: String?
    @Option(help: "Only entries from this moment on (YYYY-MM-DD[THH:MM], today, yesterday).") var since: DateArgument?
    @Option(help: "Only entries up to this moment (a bare date includes that whole day).") var until: DateArgument?
    @Option(help: "The recording whose transcript to export (srt, vtt).") var recording: Int64?
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
                throw ValidationError("--format json exports journals, for 'import'; --recording and --with-audio go with other formats")
            }
        case .srt, .vtt:
            guard recording != nil else { throw ValidationError("--format \(format.rawValue) needs --recording ID (see 'entry show')") }
            if journal != nil || since != nil || until != nil || withAudio {
                throw ValidationError("--format \(format.rawValue) exports one recording: --journal, --since, --until and --with-audio go with md")
            }
        }
    }

    func run() async throws {
        let store = try global.openStoreForReading()
        switch format {
        case .md:
            let documents = try MarkdownExport(store: store, journal: journal, since: since?.date, until: until?.endOfPeriod,
                                               linksFrom: outFolder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                                               copyAudio: withAudio).documents()
            try emit(documents.map { (Self.fileName($0.journal) + ".md", $0.text) }, audio: documents.flatMap(\.audioCopies),
                     leftOut: documents.flatMap(\.leftOut))
        case .json:
            if let journal { _ = try store.journal(named: journal) }  // an unknown name is an error, not an empty export
            let selection = ArchiveSelection(journal: journal, since: since?.date, until: until?.endOfPeriod)
            try emit([("voicejournal.json", try JSONText.encode(try store.archiver.archive(selection, now: Now.date())) + "\n")], audio: [])
        case .srt, .vtt:
            let id = recording ?? 0
            guard let stored = try store.recording(id: id) else {
                throw CLIError.usage("no recording #\(id); see: voicejournal entry list --json (recordingId)")
            }
            guard let transcript = try store.transcript(recordingId: id) else {
                throw CLIError.usage("recording #\(id) has no transcript yet; run: voicejournal queue run")
            }
            let text = Sidecar.render(format == .srt ? .srt : .vtt, transcript: transcript, durationSeconds: stored.durationSeconds)
            let name = URL(fileURLWithPath: stored.path).deletingPathExtension().lastPathComponent
            try emit([(Self.fileName(name.isEmpty ? "recording-\(id)" : name) + "." + format.rawValue, text)], audio: [])
        }
    }

    private var outFolder: URL? { out.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath) } }

    /// Prints the documents, or writes them (and copies the audio) into `--out`.
    private func emit(_ documents: [(name: String, text: String)], audio: [MarkdownExport.AudioCopy],
                      leftOut: [MarkdownExport.LeftOut] = []) throws {
        guard let folder = outFolder else {
            return print(documents.map(\.text).joined(separator: "\n"), terminator: format == .md ? "\n" : "")
        }
        let files = documents.map { folder.appendingPathComponent($0.name) }
        let copies = audio.map { folder.appendingPathComponent($0.relativePath) }
        // Checked before anything is written, so a refusal leaves the folder as it was.
        if !force, let existing = (files + copies).first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw CLIError.usage("\(existing.path) already exists; export into an empty folder, or add --force to replace it")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("cannot create the folder \(folder.path): \(SystemError.reason(of: error))")
        }
        for (document, file) in zip(documents, files) {
            do {
                try FileProblem.writePrivately(Data(document.text.utf8), to: file)
            } catch {
                throw CLIError.failure("cannot write \(file.path): \(SystemError.reason(of: error))")
            }
            print(TerminalText.escaped(file.path))
        }
        var copied = 0
        var leftOut = leftOut
        for (copy, target) in zip(audio, copies) {
            do {
                try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                if let reason = try RecordingCopy.copy(copy.recording, to: target) {
                    // Changed between the document's check and the copy: its link leads nowhere.
                    leftOut.append(MarkdownExport.LeftOut(recordingId: copy.recording.id ?? 0, path: copy.source, reason: reason))
                } else {
                    copied += 1
                }
            } catch {
                throw CLIError.failure("cannot copy \(copy.source) to \(target.path): \(SystemError.reason(of: error))")
            }
        }
        if copied > 0 { print("\(copied) audio file\(copied == 1 ? "" : "s") copied into \(TerminalText.escaped(folder.appendingPathComponent("audio").path))") }
        for left in leftOut {
            printNotice("left out the audio of recording #\(left.recordingId) (\(left.path)): \(left.reason)")
        }
    }

    /// A journal name as a file name: path separators and leading dots replaced.
    static func fileName(_ name: String) -> String {
        let cleaned = name.map { $0 == "/" || $0 == "\0" ? "-" : $0 }
        let result = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return result.isEmpty ? "journal" : result
    }
}
