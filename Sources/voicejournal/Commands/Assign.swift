import ArgumentParser
import Store
import Terminal

/// `voicejournal assign QUESTION_ID --person P`.
struct Assign: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Give a question to a person; they answer it with a recording.",
        discussion: "Answer it with: voicejournal answer ASSIGNMENT_ID (records) or --file AUDIO.")
    @OptionGroup var global: GlobalOptions
    @OptionGroup var output: OutputOptions
    @Argument(help: "The question's id (see 'question list').") var questionId: Int64
    @Option(help: "Who answers: a name, an id, or \"me\".") var person: String

    func run() async throws {
        let assignment = try global.openStore().assign(questionId: questionId, to: person, now: Now.date())
        if output.json { return try printJSON(assignment) }
        print("Assigned question #\(assignment.questionId) to \(TerminalText.escaped(assignment.person)): assignment #\(assignment.id).")
        print("Link token: \(assignment.linkToken)")
    }
}
