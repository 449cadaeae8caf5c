import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalStore
import VoiceJournalSystem

/// Completes recordings whose recorder died (SIGKILL, power loss, a crash): their rows are
/// still `recording` and nobody holds their file's lock. The file's header is repaired to
/// cover every whole frame on disk, the real duration, levels and sha256 are filled in, and
/// the transcription is queued — so a kill loses nothing that reached the disk.
package enum RecordingRecovery {
    /// What happened to one unfinished row.
    package enum Outcome: Sendable, Equatable {
        /// Repaired and completed; its transcription is queued.
        case completed(recordingId: Int64, durationSeconds: Double)
        /// The file was missing or held no audio: the row (and its empty entry) was removed.
        case discarded(recordingId: Int64)
        /// The file could not be repaired; the row was left as it was.
        case failed(recordingId: Int64, reason: String)
    }

    /// Finds rows left in `recording` whose recorder is gone and completes them. Rows of
    /// recordings still running (their file is locked) are left alone.
    @discardableResult
    package static func completeInterrupted(store: JournalStore,
                                           logger: Logger) throws -> [Outcome] {
        var outcomes: [Outcome] = []
        let files = HomeFiles(store.home)
        for recording in try store.unfinishedRecordings() {
            guard let id = recording.id else { continue }
            // Only a file voicejournal records into is repaired or removed: a row naming any
            // other (a journal edited by hand) is left as it is, and so is its file.
            guard files.place(of: recording.path) == .audio else {
                outcomes.append(.failed(recordingId: id, reason: "its file is not under the data folder's audio/ folder"))
                continue
            }
            let url = URL(fileURLWithPath: recording.path)
            guard FileManager.default.fileExists(atPath: url.path) else {
                logger.info("recording file missing; forgetting the row", metadata: ["id": "\(id)", "path": "\(url.path)"])
                try store.discardRecording(id: id)
                outcomes.append(.discarded(recordingId: id))
                continue
            }
            // Held while repairing, so a second process recovering at the same moment skips it.
            guard let lock = FileLock.attempt(url) else { continue }
            try withExtendedLifetime(lock) {
                outcomes.append(try complete(recording, id: id, url: url, store: store, logger: logger))
            }
        }
        return outcomes
    }

    private static func complete(_ recording: Recording, id: Int64, url: URL, store: JournalStore, logger: Logger) throws -> Outcome {
        let container = AudioContainer(rawValue: recording.format) ?? .wav
        let summary: WaveformSummary
        do {
            _ = try SoundFileRepair.repair(url, container: container)
            summary = try WaveformSummary.make(of: url, columns: 1)
        } catch {
            // A file killed before its header was written holds nothing worth keeping.
            if RecordingSession.fileSizeOrZero(url) <= 1024 {
                try? FileManager.default.removeItem(at: url)
                try store.discardRecording(id: id)
                return .discarded(recordingId: id)
            }
            logger.debug("cannot repair recording", metadata: ["id": "\(id)", "error": "\(error)"])
            return .failed(recordingId: id, reason: "\(error)")
        }
        guard summary.info.frames > 0 else {
            try? FileManager.default.removeItem(at: url)
            try store.discardRecording(id: id)
            return .discarded(recordingId: id)
        }
        do {
            // A live recording's pieces: the audio after the last one is queued as pieces too.
            _ = try LiveTail.complete(recording, url: url, durationSeconds: summary.info.durationSeconds, queue: store.queue, logger: logger)
        } catch {
            logger.debug("cannot queue the rest of a live recording", metadata: ["id": "\(id)", "error": "\(error)"])
            return .failed(recordingId: id, reason: "its last pieces could not be queued: \(error)")
        }
        let stamp = FileStamp.current(path: url.path) // before hashing, as every stamp
        let facts = RecordingFacts(
            sha256: try ContentDigest.sha256(fileAt: url), durationSeconds: summary.info.durationSeconds,
            sizeBytes: stamp?.sizeBytes ?? RecordingSession.fileSizeOrZero(url), modifiedNanoseconds: stamp?.modifiedNanoseconds,
            peakDBFS: summary.levels.peakDBFS, rmsDBFS: summary.levels.rmsDBFS)
        guard try store.completeRecording(id: id, facts: facts) != nil else {
            return .failed(recordingId: id, reason: "completed by another process")
        }
        logger.info("recovered an interrupted recording", metadata: ["id": "\(id)", "seconds": "\(facts.durationSeconds)"])
        return .completed(recordingId: id, durationSeconds: facts.durationSeconds)
    }
}
