import ArgumentParser
import Foundation
import Logging
import VoiceJournal
import VoiceJournalPages

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
        @Argument(help: "The entry's id (see 'entry list').", completion: .custom(LiveCompletions.entries)) var id: Int64

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
    static let discussion = CommandHelp.delete

    @Flag(name: .long, help: "Delete without asking.") var yes = false
    @Flag(name: .long, help: "Only say what would be deleted.") var dryRun = false
    @OptionGroup var output: OutputOptions

    func delete(_ target: DeletionTarget, global: GlobalOptions) throws {
        if dryRun {
            let plan = try global.openStoreForReading().deleter.deletionPlan(target)
            return output.json ? try printJSON(plan) : print(DeletionText.describe(plan))
        }
        let confirm: ((DeletionPlan) throws -> Bool)? = yes ? nil : { try ask($0) }
        guard let outcome = try Deletion.run(target, store: try global.openStore(), confirm: confirm,
                                             logger: Logger(label: "voicejournal.delete")) else {
            return output.json ? printNotice("nothing was deleted") : print("Nothing was deleted.")
        }
        if output.json { return try printJSON(outcome) }
        print(DeletionText.done(outcome))
        for notice in DeletionText.leftFileNotices(outcome) { printNotice(notice) }
        if !outcome.leftFiles.isEmpty { throw ExitCode(.failure) }
    }

    /// Shows what goes and asks on a terminal; elsewhere refuses without --yes.
    private func ask(_ plan: DeletionPlan) throws -> Bool {
        guard isatty(STDIN_FILENO) == 1 else {
            throw CLIError.usage("deleting \(plan.target) removes \(DeletionText.summary(plan)); "
                + "nothing was deleted: add --yes to delete without being asked (or --dry-run to see the list)")
        }
        // With --json, stdout holds only the JSON document: the list goes with the question.
        let list = DeletionText.describe(plan) + "\n"
        if output.json { FileHandle.standardError.write(Data(list.utf8)) } else { print(list, terminator: "") }
        FileHandle.standardError.write(Data("Delete all of this? [y/N] ".utf8))
        let answer = readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return answer == "y" || answer == "yes"
    }
}
