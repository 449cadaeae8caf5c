import Audio
import Foundation
import Logging
import Store

/// Deleting something from the journal with its files: the rows in one transaction, then
/// the audio and chunk files inside the data home. Files outside the home (the folders
/// `transcribe` read) are never touched.
public enum Deletion {
    /// What a delete did.
    public struct Outcome: Sendable, Equatable {
        /// What was removed from the database.
        public var plan: DeletionPlan
        /// Files inside the home that were removed.
        public var removedFiles: [String]
        /// Files inside the home that could not be removed, each with the reason.
        public var leftFiles: [String: String]
    }

    /// Deletes `target` (if it still removes exactly `expecting`, when given) and then its
    /// files. A queue runner holding one of its jobs finds the job gone: its result is
    /// dropped, nothing is stored again.
    public static func run(_ target: DeletionTarget, store: JournalStore, expecting: DeletionPlan? = nil,
                           logger: Logger) throws -> Outcome {
        let plan = try store.delete(target, expecting: expecting)
        var outcome = Outcome(plan: plan, removedFiles: [], leftFiles: [:])
        for path in plan.audioFiles + plan.chunkFiles where store.home.holds(path) {
            do {
                try FileManager.default.removeItem(atPath: path)
                outcome.removedFiles.append(path)
            } catch {
                guard FileManager.default.fileExists(atPath: path) else { continue }
                logger.warning("could not remove a deleted recording's file", metadata: ["file": "\(path)", "error": "\(error)"])
                outcome.leftFiles[path] = SystemError.reason(of: error)
            }
        }
        return outcome
    }
}
