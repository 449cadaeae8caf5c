import ArgumentParser
import Store
import Terminal

/// `voicejournal assignment list`.
struct AssignmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assignment",
        abstract: "List assignments and their answers.",
        subcommands: [List.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List assignments, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only this status: pending (not answered yet) or answered.") var status: Status?

        /// What `--status` takes. `sent` is not offered: nothing hands a link out yet, so no
        /// assignment is ever in that state; a pending one is simply waiting for its answer.
        enum Status: String, ExpressibleByArgument, CaseIterable {
            case pending, answered
        }

        func run() async throws {
            let assignments = try global.openStoreForReading().assignments(answered: status.map { $0 == .answered })
            if output.json { return try printJSON(assignments) }
            guard !assignments.isEmpty else { return print("No assignments.") }
            print(Table(headers: ["ID", "PERSON", "STATUS", "QUESTION", "ANSWER"], rows: assignments.map {
                [String($0.id), $0.person, $0.status.rawValue, $0.question, $0.transcript ?? ""]
            }, maxColumnWidth: 48).render())
        }
    }
}
