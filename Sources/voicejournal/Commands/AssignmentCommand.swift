import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings
import VoiceJournalSystem
import VoiceJournalTerminal

/// `voicejournal assignment list|show|link`.
struct AssignmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assignment", abstract: "List assignments, show their answers, send their links by email and remind.",
        subcommands: [List.self, Show.self, Link.self, Send.self, Remind.self])

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "send", abstract: "Email an assignment's question and link to its person.",
                                                        discussion: CommandHelp.assignmentSend)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The assignment's id (see 'assignment list').") var id: Int64
        @Flag(help: "Send it even though it went before (or may have).") var again = false
        @OptionGroup var link: LinkOptions

        func run() async throws {
            try await printLines(AssignmentMailRun(store: global.openStore(), settings: link.settings(global), environment: environment,
                                                   now: Now.date()).send(id, again: again))
        }
    }

    struct Remind: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remind", abstract: "Email a reminder of an unanswered assignment.",
                                                        discussion: CommandHelp.assignmentRemind)
        @OptionGroup var global: GlobalOptions
        @Argument(help: "The assignment's id (see 'assignment list').") var id: Int64
        @OptionGroup var link: LinkOptions

        func run() async throws {
            try await printLines(AssignmentMailRun(store: global.openStore(), settings: link.settings(global), environment: environment,
                                                   now: Now.date()).remind(id))
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List assignments, newest first.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Option(help: "Only this status: pending (not answered yet) or answered.") var status: Status?

        /// What `--status` takes. A pending one is waiting for its answer, its link sent or not
        /// (`sentAt` says when it went by email).
        enum Status: String, ExpressibleByArgument, CaseIterable {
            case pending, answered
        }

        func run() async throws {
            let assignments = try global.openStoreForReading().assignments(status: status.map { $0 == .answered ? .answered : .pending })
            try output.show(assignments, JournalTables.assignments)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Show an assignment: its question, person, link token and the answer's recording and timed transcript.")
        @OptionGroup var global: GlobalOptions
        @OptionGroup var output: OutputOptions
        @Argument(help: "The assignment's id (see 'assignment list').") var id: Int64
        @OptionGroup var link: LinkOptions
        @Flag(help: "Then play the answer (as `voicejournal play --assignment ID` does).") var play = false
        @Option(help: "With --play: the ALSA playback device (see `voicejournal devices --playback`).") var device = "default"

        func validate() throws {
            if play, output.json {
                throw ValidationError("--play and --json cannot go together; for what was played use: voicejournal play --assignment \(id) --json")
            }
        }

        func run() async throws {
            let settings = try link.settings(global)
            let store = try global.openStoreForReading()
            let view = try store.assignmentView(id: id)
            try output.show(AssignmentPage(view, waveform: RecordingLines.waveform(of: view.recording))) {
                $0.text(link: settings.answerLink(token: view.assignment.linkToken), color: output.color)
            }
            guard play else { return }
            let target = try PlayTarget.assignment(id, in: store), device = device
            try await DedicatedThread.run(name: "voicejournal play") { try playTarget(target, at: nil, to: nil, device: device, json: false) }
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
