import ArgumentParser
import Audio
import Foundation
import Store
import Terminal

/// `voicejournal assignment list`.
struct AssignmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assignment",
        abstract: "List assignments and show their answers.",
        subcommands: [List.self, Show.self, Link.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List assignments, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only this status: pending (not answered yet) or answered.") var status: Status?

        /// What `--status` takes. `sent` is not offered: voicejournal does not know when a link
        /// is sent, so no assignment is ever in that state; a pending one is waiting for its answer.
        enum Status: String, ExpressibleByArgument, CaseIterable {
            case pending, answered
        }

        func run() async throws {
            let assignments = try global.openStoreForReading().assignments(status: status.map { $0 == .answered ? .answered : .pending })
            if output.json { return try printJSON(assignments) }
            guard !assignments.isEmpty else { return print("No assignments.") }
            print(Table(headers: ["ID", "PERSON", "STATUS", "QUESTION", "ANSWER"], rows: assignments.map {
                [String($0.id), $0.person, $0.status.rawValue, $0.question, $0.transcript ?? ""]
            }, maxColumnWidth: 48).render())
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an assignment: its question, person, link token and the answer's recording and timed transcript.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The assignment's id (see 'assignment list').") var id: Int64
        @OptionGroup var link: LinkOptions

        struct Shown: Encodable {
            let assignment: AssignmentSummary
            let recording: RecordingDetails?
            /// The answer's RMS envelope, 0–1; nil before it is answered or when its file cannot be read.
            let waveform: [Double]?
        }

        func run() async throws {
            let settings = try link.settings(global)
            let store = try global.openStoreForReading()
            let assignment = try store.assignment(id: id)
            let details = try store.recordingDetails(ofAssignment: id)
            let summary = details.flatMap { try? WaveformSummary.make(of: URL(fileURLWithPath: $0.recording.path),
                                                                      columns: EntryCommand.Show.waveformColumns) }
            if output.json {
                return try printJSON(Shown(assignment: assignment, recording: details, waveform: summary?.columns.map(\.rms)))
            }
            print("Assignment #\(assignment.id)  \(assignment.status.rawValue)  \(TerminalText.escaped(assignment.journal))")
            print("Question #\(assignment.questionId): \(TerminalText.escaped(assignment.question))")
            print("Person:  \(TerminalText.escaped(assignment.person))")
            print("Given:   \(shortDate(assignment.createdAt))" + (assignment.answeredAt.map { ", answered \(shortDate($0))" } ?? ""))
            print("Link:    \(TerminalText.escaped(settings.answerLink(token: assignment.linkToken)))")
            guard let details else { return print("\nNot answered yet: voicejournal answer \(id)") }
            EntryCommand.Show.printRecording(details, summary: summary)
            print("")
            if let transcript = details.transcript {
                print(EntryCommand.Show.shown(transcript))
            } else {
                print("(not transcribed yet; run: voicejournal queue run)")
            }
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "Print the link that answers an assignment (what `voicejournal serve` answers).")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var link: LinkOptions
        @Argument(help: "The assignment's id (see 'assignment list').") var id: Int64

        func run() async throws {
            let settings = try link.settings(global)
            let assignment = try global.openStoreForReading().assignment(id: id)
            print(TerminalText.escaped(settings.answerLink(token: assignment.linkToken)))
            if assignment.status == .answered { printNotice("assignment \(id) is already answered; the link shows a thank-you page") }
        }
    }
}
