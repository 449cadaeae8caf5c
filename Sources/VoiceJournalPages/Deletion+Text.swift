import VoiceJournalStore
import VoiceJournalTerminal

/// A deletion in words, for the terminal: what a plan removes, and what a delete did. Names
/// and paths come from rows and are escaped.
package enum DeletionText {
    /// One line: "2 entries, 3 recordings, 1 transcript, 2 audio files".
    package static func summary(_ plan: DeletionPlan) -> String {
        let parts = counts(plan).filter { $0.count > 0 }.map { count(of: $0.count, $0.noun) }
        return parts.isEmpty ? "nothing else" : parts.joined(separator: ", ")
    }

    /// The full list: every count and every file that goes, and the files that stay.
    package static func describe(_ plan: DeletionPlan) -> String {
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

    /// "Deleted entry #3 and 2 files.": what went, and how many files with it.
    package static func done(_ outcome: Deletion.Outcome) -> String {
        let files = outcome.removedFiles.count
        return "Deleted \(TerminalText.escaped(outcome.plan.target))"
            + (files > 0 ? " and \(files) file\(files == 1 ? "" : "s")." : ".")
    }

    /// The notices for files the deletion could not remove (in path order), each saying to
    /// delete it by hand.
    package static func leftFileNotices(_ outcome: Deletion.Outcome) -> [String] {
        outcome.leftFiles.sorted(by: { $0.key < $1.key }).map { path, reason in "could not remove \(path): \(reason); delete it by hand" }
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
