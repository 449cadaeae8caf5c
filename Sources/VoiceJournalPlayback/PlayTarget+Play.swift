import Foundation
import Logging
import VoiceJournalAudio
import VoiceJournalStore
import VoiceJournalTerminal

/// How a `play` of a target ended, for the command to report.
package struct PlayEnding: Sendable {
    /// What was played (`--json`).
    package let report: PlayReport
    /// A signal (Ctrl-C, SIGTERM) stopped it.
    package let interrupted: Bool
    /// The file was cut short while it played: failed work, reported after the rest.
    package let cutShort: PlayTargetError?
}

extension PlayTarget {
    /// Plays the target from `at` (else where it starts) to `to` on `device`: the player on a
    /// terminal (stderr), silence but errors elsewhere. Throws what stops it from playing (a
    /// start past the end, a device that fails mid-way); a signal or a file cut short is in
    /// the ending, after the report. Blocks the calling thread until the end (from an async
    /// command: `DedicatedThread.run`, as long as the listening lasts).
    package func play(at: Double?, to: Double?, device: String) throws -> PlayEnding {
        try checkContent()
        let terminal = TerminalInfo.detect(fileDescriptor: STDERR_FILENO)
        let start = at ?? startSeconds ?? 0
        let session = try PlaybackSession(file: url, deviceName: device, from: start, to: to, measuresLevel: terminal.isTTY,
                                          growing: isBeingRecorded, interactive: terminal.isTTY,
                                          logger: Logger(label: "voicejournal.play"))
        let status = session.status()
        if let total = status.totalSeconds, start > 0, start >= total {
            throw PlayTargetError(.pastEnd, "--at \(Clock.precise(start)) is past the end of \(TerminalText.escaped(title)) "
                                            + "(\(Clock.precise(total)) long)")
        }
        let outcome = Player.play(session, segments: segments, title: title, showing: terminal.isTTY,
                                  color: terminal.color, width: terminal.width,
                                  write: { FileHandle.standardError.write(Data($0.utf8)) })
        let result = outcome.result
        if result.end == .failed, let error = result.error { throw error }
        var cutShort: PlayTargetError?
        if result.cutShort {
            let rate = Double(max(session.deviceFormat.sampleRate, 1))
            cutShort = PlayTargetError(.cutShort, "\(TerminalText.escaped(url.path)) was cut short while it played: it ended at "
                                                  + "\(Clock.precise(Double(result.position) / rate)), before the length it had when playback started")
        }
        return PlayEnding(report: PlayReport(self, session: session, outcome: outcome, from: start, device: device),
                          interrupted: outcome.signal != nil, cutShort: cutShort)
    }
}

extension PlayTarget {
    /// `search --play`: the best of `hits` that lies in a recording (see `best(of:in:)`), or
    /// the error that says there is none for `words`.
    package static func best(of hits: [SearchHit], for words: String, in store: JournalStore) throws -> PlayTarget {
        guard let target = try best(of: hits, in: store) else {
            throw PlayTargetError(.noHitWithRecording, hits.isEmpty
                ? "nothing to play: no match for \"\(words)\""
                : "nothing to play: no match for \"\(words)\" lies in a recording")
        }
        return target
    }
}

extension PlayTarget {
    /// `play`'s one target: `argument` (an entry's number, else an audio file), else
    /// `recording`, `assignment`, or the best hit of `search`; the store is opened only for
    /// what is in it.
    package static func named(_ argument: String?, recording: Int64?, assignment: Int64?, search: String?,
                              openStore: () throws -> JournalStore) throws -> PlayTarget {
        if let argument, argument.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int64(argument) {
            return try entry(id, in: openStore())
        }
        if let argument { return try file(argument) }
        if let recording { return try Self.recording(recording, in: openStore()) }
        if let assignment { return try Self.assignment(assignment, in: openStore()) }
        return try Self.search(search ?? "", in: openStore(), timeLimit: SearchTimeLimit.resolve(environment: ProcessInfo.processInfo.environment))
    }
}
