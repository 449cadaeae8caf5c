import ArgumentParser
import Foundation
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// `queue status|run|list|retry|cancel` — the transcription queue.
struct Queue: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Inspect and run the transcription queue.",
        subcommands: [Status.self, Run.self, List.self, Retry.self, Cancel.self],
        defaultSubcommand: Status.self)
}

extension Queue {
    /// `queue status` — jobs per state.
    struct Status: AsyncParsableCommand, JSONOutput {
        static let configuration = CommandConfiguration(
            commandName: "status", abstract: "How many jobs are queued, running, done, failed; where the running ones are being sent.")

        @OptionGroup var global: GlobalOptions
        @Flag(help: "One JSON document on stdout.") var json = false

        func run() async throws {
            try show(try QueueStatusJSON(of: global.openStoreForReading())) { $0.text }
        }
    }

    /// `queue run` — work until nothing is queued.
    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Transcribe queued jobs until the queue is empty, then ask for the queued reflections and send the queued emails.",
            discussion: "Safe to run alongside other `queue run`s and `transcribe`s: jobs are leased, never shared.")

        @OptionGroup var global: GlobalOptions
        @Option(help: JobsHelp.uploads) var jobs: Int?
        @OptionGroup var transcription: TranscriptionFlags
        @Flag(help: "At the end, one JSON document on stdout: counts, failures, and what each endpoint did.") var json = false

        func validate() throws { if let jobs { try validateJobs(jobs) } }

        func run() async throws {
            let settings = try global.settings(transcription.flags(jobs: jobs))
            let store = try global.openStore()
            // With nothing to transcribe, no transcription server need be named: reflections and emails still go.
            let counts = try store.queue.queueCounts()
            let idle = counts.queued + counts.running == 0 && !json
            let runner = try Result { try transcription.makeRunner(store: store, settings: settings, jobs: jobs) }
                .flatMapError { idle ? .success(nil) : .failure($0) }.get()
            var failed = false
            if let runner {
                let drained = try await untilInterrupted { try await BatchProgressDisplay(notice: printNotice).drain(runner) }
                if json { try printJSON(RunJSON(drained)) } else { for line in drained.reportLines { print(line) } }
                failed = drained.summary.failed > 0
            } else {
                print("Nothing to transcribe.")
            }
            // After the transcriptions' report: a chat server that refuses or is not there stops only this part.
            let reflected = try await untilInterrupted { try await AutoReflection.drain(settings: settings, store: store, environment: ProcessInfo.processInfo.environment, notice: printNotice) }
            let mailed = try await untilInterrupted { try await AssignmentMailRun.drain(store: store, settings: settings, environment: environment, now: Now.date()) }
            for line in reflected + mailed { if json { printNotice(line) } else { print(line) } }
            if failed { throw ExitCode(.failure) }
        }
    }

    /// `queue list` — the jobs with their files and last errors.
    struct List: AsyncParsableCommand, JSONOutput {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List jobs, newest change first.")

        @OptionGroup var global: GlobalOptions
        @Option(help: ArgumentHelp("Only jobs in this state: queued, running, done, failed, cancelled.", valueName: "state"))
        var state: JobState?
        @Option(parsing: .unconditional, help: "At most this many jobs.") var limit: Int?
        @Flag(help: "One JSON document on stdout.") var json = false

        func validate() throws { try validateLimit(limit) }

        func run() async throws {
            let listings = try global.openStoreForReading().queue.listJobs(state: state, limit: limit)
            try show(listings.map(JobJSON.init)) { _ in JobListing.lines(listings, state: state).joined(separator: "\n") }
        }
    }

    /// `queue retry ID | --failed` — queue failed or cancelled jobs again.
    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "retry", abstract: "Queue a failed or cancelled job again (or every failed one, or a done one with --done).",
            discussion: CommandHelp.queueRetry)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The job's id (see `queue list`).") var id: Int64?
        @Flag(help: "Every failed job.") var failed = false
        @Flag(help: "The job may be done: transcribe its recording again, keeping the transcript until the new one is in.")
        var done = false

        func validate() throws {
            if (id == nil) == !failed { throw ValidationError("Give a job id or --failed (not both).") }
            if done && id == nil { throw ValidationError("--done needs the id of the job to transcribe again.") }
        }

        func run() async throws {
            let ids = try global.openStore().queue.retryJobs(ids: id.map { [$0] }, done: done)
            print(ids.isEmpty ? "No failed jobs." : "Queued again: \(ids.count) job\(ids.count == 1 ? "" : "s"). Run `voicejournal queue run` to transcribe.")
        }
    }

    /// `queue cancel ID` — drop a job that has not finished.
    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a job that has not finished.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The job's id (see `queue list`).") var id: Int64

        func run() async throws {
            let job = try global.openStore().queue.cancelJob(id: id)
            print("Cancelled job \(job.id ?? id).")
        }
    }
}

extension JobState: ExpressibleByArgument {}
