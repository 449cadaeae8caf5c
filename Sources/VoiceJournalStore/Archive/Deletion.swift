import Foundation
import Logging

/// Deleting something from the journal with its files: the rows in one transaction, then
/// the files voicejournal made for them (regular files under the home's `audio/` and `tmp/`,
/// see `HomeFiles`). Nothing else is touched: not files outside the home (the folders
/// `transcribe` read), not a folder, not the database, whatever a row names.
package enum Deletion {
    /// What a delete did.
    package struct Outcome: Sendable, Equatable {
        /// What was removed from the database.
        package var plan: DeletionPlan
        /// Files voicejournal made that were removed.
        package var removedFiles: [String]
        /// Files it meant to remove but could not (or found not to be its own), each with the reason.
        package var leftFiles: [String: String]
    }

    /// Deletes `target` (if it still removes exactly `expecting`, when given) and then its
    /// files. A queue runner holding one of its jobs finds the job gone: its result is
    /// dropped, nothing is stored again.
    package static func run(_ target: DeletionTarget, store: JournalStore, expecting: DeletionPlan? = nil,
                           logger: Logger) throws -> Outcome {
        let plan = try store.deleter.delete(target, expecting: expecting)
        var outcome = Outcome(plan: plan, removedFiles: [], leftFiles: [:])
        let files = HomeFiles(store.home)
        for (path, place) in plan.audioFiles.map({ ($0, HomeFiles.Place.audio) }) + plan.chunkFiles.map({ ($0, .temporary) }) {
            switch files.removeFile(path, from: place) {
            case .removed:
                outcome.removedFiles.append(path)
            case .missing:
                continue
            case .refused(let reason), .failed(let reason):
                logger.warning("could not remove a deleted recording's file", metadata: ["file": "\(path)", "error": "\(reason)"])
                outcome.leftFiles[path] = reason
            }
        }
        return outcome
    }

    /// Deletes `target` once `confirm` agreed to what it removes (the plan read first), or
    /// at once when `confirm` is nil; nil when `confirm` declined and nothing was deleted.
    /// Without a question the rows are read once, inside the delete's write; after one, the
    /// delete goes ahead only if it still removes what was agreed to.
    package static func run(_ target: DeletionTarget, store: JournalStore, confirm: ((DeletionPlan) throws -> Bool)?,
                           logger: Logger) throws -> Outcome? {
        guard let confirm else { return try run(target, store: store, logger: logger) }
        let plan = try store.deleter.deletionPlan(target)
        guard try confirm(plan) else { return nil }
        return try run(target, store: store, expecting: plan, logger: logger)
    }
}

/// `--json` after a delete: what was removed from the database, and the files.
extension Deletion.Outcome: Encodable {
    private enum CodingKeys: String, CodingKey { case deleted, removedFiles, leftFiles }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(plan, forKey: .deleted)
        try container.encode(removedFiles, forKey: .removedFiles)
        try container.encode(leftFiles, forKey: .leftFiles)
    }
}
