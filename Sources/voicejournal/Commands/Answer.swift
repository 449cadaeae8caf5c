import ArgumentParser
import Audio
import Foundation
import Pipeline
import Store

/// `answer` — record the answer to an assignment, or attach an existing audio file as it.
struct Answer: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "answer",
        abstract: "Record (or attach) the answer to an assignment",
        discussion: """
            Without --file this records exactly like `record --assignment ID`. With --file the \
            audio (any format libsndfile reads) is copied into the journal's audio folder. Either \
            way the assignment is marked answered and the transcription queued.
            """)

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The assignment to answer (see `voicejournal assignment list`).", valueName: "assignment-id"))
    var assignmentId: Int64

    @Option(help: ArgumentHelp("Attach this audio file instead of recording.", valueName: "audio"))
    var file: String?

    @OptionGroup var capture: CaptureOptions

    @Flag(help: "Print the saved recording as JSON.")
    var json = false

    func run() async throws {
        let store = try global.openStore()
        if let file {
            try attach(URL(fileURLWithPath: file), store: store)
        } else {
            let outcome = try await capture.record(owner: .assignment(assignmentId), store: store)
            try RecordingReport.finish(outcome, json: json)
        }
    }

    /// Probes the file, copies it (0600) into `<home>/audio/YYYY/MM/`, and records it as the answer.
    private func attach(_ source: URL, store: JournalStore) throws {
        try store.checkOwner(.assignment(assignmentId))
        let summary: WaveformSummary
        do {
            summary = try WaveformSummary.make(of: source, columns: 1)
        } catch let error as SoundFileError {
            throw CLIError.failure("\(source.path) is not audio voicejournal can read: \(error.reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        } catch {
            throw CLIError.failure("cannot read \(source.path): \(error.localizedDescription)")
        }
        guard summary.info.frames > 0 else { throw CLIError.failure("\(source.path) holds no audio") }
        let now = Date()
        let folder = store.home.audioFolder(for: now)
        try store.home.createPrivateFolder(folder)
        let fileExtension = source.pathExtension.isEmpty ? summary.info.format : source.pathExtension.lowercased()
        let facts = RecordingFacts(
            sha256: try ContentDigest.sha256(fileAt: source), durationSeconds: summary.info.durationSeconds,
            sizeBytes: Int64(try FileManager.default.attributesOfItem(atPath: source.path)[.size] as? Int ?? 0),
            peakDBFS: summary.levels.peakDBFS, rmsDBFS: summary.levels.rmsDBFS)
        var copied: URL?
        let completed: CompletedRecording
        do {
            completed = try store.addAnswer(assignmentId: assignmentId, format: summary.info.format,
                                            sampleRate: summary.info.sampleRate, channels: summary.info.channels,
                                            facts: facts, now: now) { id in
                let destination = folder.appendingPathComponent("\(Self.stamp(now))-\(id).\(fileExtension)")
                try FileManager.default.copyItem(at: source, to: destination)
                copied = destination
                try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: destination.path)
                return destination.path
            }
        } catch {
            if let copied { try? FileManager.default.removeItem(at: copied) }
            throw error
        }
        let outcome = RecordingOutcome(recording: completed.recording, job: completed.job)
        try RecordingReport.finish(outcome, json: json)
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        return formatter.string(from: date)
    }
}
