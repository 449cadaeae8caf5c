import ArgumentParser
import Audio
import Foundation
import Store
import Terminal

/// `voicejournal export`: journals as Markdown or JSON, to stdout or one file per journal.
struct Export: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export journals as Markdown or JSON.",
        discussion: """
            Without --out, everything goes to stdout. With --out DIR, one file per journal \
            (DIR/<journal>.md or .json, mode 0600); files already there are left alone unless \
            --force is given. Voice entries are exported with their transcripts.
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case md, json }

    @OptionGroup var global: GlobalOptions
    @Option(help: "md or json.") var format: Format = .md
    @Option(help: "Only this journal.") var journal: String?
    @Option(help: "Write one file per journal into this folder.") var out: String?
    @Flag(help: "With --out, replace export files that are already there.") var force = false

    func run() async throws {
        let store = try global.openStoreForReading()
        let journals = try store.journals().filter { summary in
            journal.map { summary.name.caseInsensitiveCompare($0) == .orderedSame } ?? true
        }
        if let journal, journals.isEmpty { _ = try store.journal(named: journal) }  // throws the helpful error
        // Oldest first, as a journal reads.
        let exported = try journals.map { summary in
            ExportedJournal(journal: summary, entries: try store.entries(EntryFilter(journal: summary.name)).reversed())
        }
        guard let out else {
            if format == .json { return try printJSON(exported) }
            return print(try exported.map(render).joined(separator: "\n"))
        }
        let folder = URL(fileURLWithPath: (out as NSString).expandingTildeInPath)
        let files = exported.map { folder.appendingPathComponent(Self.fileName($0.journal.name) + "." + format.rawValue) }
        // Checked before anything is written, so a refusal leaves the folder as it was.
        if !force, let existing = files.first(where: { FileManager.default.fileExists(atPath: $0.path) }) {
            throw CLIError.usage("\(existing.path) already exists; export into an empty folder, or add --force to replace it")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("cannot create the folder \(folder.path): \(SystemError.reason(of: error))")
        }
        for (journal, file) in zip(exported, files) {
            do {
                try FileProblem.writePrivately(Data(try render(journal).utf8), to: file)
            } catch {
                throw CLIError.failure("cannot write \(file.path): \(SystemError.reason(of: error))")
            }
            print(TerminalText.escaped(file.path))
        }
    }

    struct ExportedJournal: Encodable {
        let journal: JournalSummary
        let entries: [EntryDetails]
    }

    private func render(_ exported: ExportedJournal) throws -> String {
        let (journal, entries) = (exported.journal, exported.entries)
        if format == .json {
            return try JSONText.encode(exported) + "\n"
        }
        var text = "# \(journal.name)\n\n"
        if let description = journal.description { text += "\(description)\n\n" }
        for entry in entries {
            let tags = [entry.kind.rawValue, entry.mood?.rawValue, entry.theme?.rawValue].compactMap { $0 }
            text += "## \(shortDate(entry.createdAt))" + (entry.title.map { " — \($0)" } ?? "")
                + " (\(tags.joined(separator: ", ")))\n\n"
            let body = entry.text.isEmpty ? "_(not transcribed yet)_" : entry.text
            text += body + "\n\n"
        }
        return text
    }

    /// A journal name as a file name: path separators and leading dots replaced.
    static func fileName(_ name: String) -> String {
        let cleaned = name.map { $0 == "/" || $0 == "\0" ? "-" : $0 }
        let result = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return result.isEmpty ? "journal" : result
    }
}
