import ArgumentParser
import Foundation
import Logging
import Store
import Terminal

// `entry delete`, `question delete`, `journal delete`, `person delete`: each says exactly
// what goes, asks on a terminal (or takes --yes), and leaves nothing behind.

extension EntryCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete an entry with its recordings, transcripts and the audio voicejournal recorded for it.",
            discussion: DeleteOptions.discussion)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var options: DeleteOptions
        @Argument(help: "The entry's id (see 'entry list').") var id: Int64

        func run() async throws { try options.delete(.entry(id), global: global) }
    }
}

extension QuestionCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a question with its assignments and their answers.",
            discussion: DeleteOptions.discussion)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var options: DeleteOptions
        @Argument(help: "The question's id (see 'question list').") var id: Int64

        func run() async throws { try options.delete(.question(id), global: global) }
    }
}

extension JournalCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a journal with its entries, questions, assignments and answers.",
            discussion: DeleteOptions.discussion)
        @OptionGroup var global: GlobalOptions
        @OptionGroup var options: DeleteOptions
        @Argument(help: "The journal's name.") var name: String

        func run() async throws { try options.delete(.journal(name), global: global) }
    }
}

extension PersonCommand {
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete a person with their assignments, answers and the journals dedicated to them.",
            discussion: DeleteOptions.discussion + " \"Myself\" cannot be deleted.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var options: DeleteOptions
        @Argument(help: "Their name or id (see 'person list').") var person: String

        func run() async throws { try options.delete(.person(person), global: global) }
    }
}

/// The flags every delete takes, and the delete itself: show, ask, delete, report.
struct DeleteOptions: ParsableArguments {
    static let discussion = """
        Says what will go (entries, recordings, transcripts, queued jobs, audio files in the data \
        folder) and asks first on a terminal; elsewhere --yes is needed. Only files voicejournal \
        made are deleted (under the data folder's audio/ and tmp/): audio from folders given to \
        'transcribe' never is.
        """

    @Flag(name: .long, help: "Delete without asking.") var yes = false
    @Flag(name: .long, help: "Only say what would be deleted.") var dryRun = false
    @OptionGroup var output: OutputOptions

    func delete(_ target: DeletionTarget, global: GlobalOptions) throws {
        if dryRun {
            let plan = try global.openStoreForReading().deleter.deletionPlan(target)
            return output.json ? try printJSON(plan) : print(DeletionText.describe(plan))
        }
        let store = try global.openStore()
        // With --yes nothing is shown, and the delete reads its rows once, inside its write.
        var expected: DeletionPlan?
        if !yes {
            let plan = try store.deleter.deletionPlan(target)
            expected = plan
            guard isatty(STDIN_FILENO) == 1 else {
                throw CLIError.usage("deleting \(plan.target) removes \(DeletionText.summary(plan)); "
                    + "nothing was deleted: add --yes to delete without being asked (or --dry-run to see the list)")
            }
            // With --json, stdout holds only the JSON document: the list goes with the question.
            let list = DeletionText.describe(plan) + "\n"
            if output.json { FileHandle.standardError.write(Data(list.utf8)) } else { print(list, terminator: "") }
            FileHandle.standardError.write(Data("Delete all of this? [y/N] ".utf8))
            let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
            guard answer == "y" || answer == "yes" else {
                return output.json ? printNotice("nothing was deleted") : print("Nothing was deleted.")
            }
        }
        let outcome = try Deletion.run(target, store: store, expecting: expected,
                                       logger: Logger(label: "voicejournal.delete"))
        if output.json { return try printJSON(DeletedJSON(outcome)) }
        let files = outcome.removedFiles.count
        print("Deleted \(TerminalText.escaped(outcome.plan.target))"
              + (files > 0 ? " and \(files) file\(files == 1 ? "" : "s")." : "."))
        for (path, reason) in outcome.leftFiles.sorted(by: { $0.key < $1.key }) {
            printNotice("could not remove \(path): \(reason); delete it by hand")
        }
        if !outcome.leftFiles.isEmpty { throw ExitCode(CLIError.failure) }
    }

    /// `--json` after a delete.
    struct DeletedJSON: Encodable {
        let deleted: DeletionPlan
        let removedFiles: [String]
        let leftFiles: [String: String]

        init(_ outcome: Deletion.Outcome) {
            deleted = outcome.plan
            removedFiles = outcome.removedFiles
            leftFiles = outcome.leftFiles
        }
    }
}

/// A deletion plan in words.
enum DeletionText {
    /// One line: "2 entries, 3 recordings, 1 transcript, 2 audio files".
    static func summary(_ plan: DeletionPlan) -> String {
        let parts = counts(plan).filter { $0.count > 0 }.map { count(of: $0.count, $0.noun) }
        return parts.isEmpty ? "nothing else" : parts.joined(separator: ", ")
    }

    /// The full list: every count and every file that goes, and the files that stay.
    static func describe(_ plan: DeletionPlan) -> String {
        var lines = ["Deleting \(TerminalText.escaped(plan.target)) removes:"]
        for (number, noun) in counts(plan) where number > 0 {
            var line = "  " + count(of: number, noun)
            if noun == "journal" { line += ": " + plan.journals.map { "\"\(TerminalText.escaped($0))\"" }.joined(separator: ", ") }
            if noun == "transcription job", plan.unfinishedJobs > 0 { line += " (\(plan.unfinishedJobs) still queued or running)" }
            lines.append(line)
        }
        if lines.count == 1 { lines.append("  nothing else") }
        lines += plan.audioFiles.map { "    " + TerminalText.escaped($0) }
        if !plan.keptAudioFiles.isEmpty {
            lines.append("Kept: " + count(of: plan.keptAudioFiles.count, "audio file")
                         + " outside voicejournal's audio folder or still another recording's (voicejournal never deletes those):")
            lines += plan.keptAudioFiles.map { "    " + TerminalText.escaped($0) }
        }
        return lines.joined(separator: "\n")
    }

    private static func counts(_ plan: DeletionPlan) -> [(count: Int, noun: String)] {
        [(plan.journals.count, "journal"), (plan.questions, "question"), (plan.assignments, "assignment"),
         (plan.entries, "entry"), (plan.recordings, "recording"), (plan.transcripts, "transcript"),
         (plan.jobs, "transcription job"), (plan.audioFiles.count, "audio file in the data folder"),
         (plan.chunkFiles.count, "chunk file")]
    }

    private static func count(of number: Int, _ noun: String) -> String {
        guard number != 1 else { return "1 \(noun)" }
        if noun == "entry" { return "\(number) entries" }
        if noun.hasPrefix("audio file") { return "\(number) audio files" + noun.dropFirst("audio file".count) }
        return "\(number) \(noun)s"
    }
}
