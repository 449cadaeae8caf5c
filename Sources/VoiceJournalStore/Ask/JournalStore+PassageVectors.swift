import Foundation
import GRDB

/// An embedding of a run of an entry's sentences, as kept for `ask`.
public struct PassageVector: Sendable, Equatable {
    public var entryId: Int64
    /// The run's place in the entry: its first and last sentence (0-based).
    public var firstSentence: Int
    public var lastSentence: Int
    public var vector: [Float]

    public init(entryId: Int64, firstSentence: Int, lastSentence: Int, vector: [Float]) {
        self.entryId = entryId
        self.firstSentence = firstSentence
        self.lastSentence = lastSentence
        self.vector = vector
    }
}

extension JournalStore {
    /// Replaces entry `entryId`'s vectors under `model` with `vectors`, made from its text as
    /// `textHash` names it.
    public func storePassageVectors(_ vectors: [PassageVector], entryId: Int64, model: String, textHash: String) throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM passage_vector WHERE entryId = ? AND model = ?", arguments: [entryId, model])
            guard try Entry.fetchOne(db, key: entryId) != nil else { return } // deleted meanwhile
            for (chunk, passage) in vectors.enumerated() {
                try db.execute(sql: """
                    INSERT INTO passage_vector (entryId, model, chunk, firstSentence, lastSentence, textHash, vector)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [entryId, model, chunk, passage.firstSentence, passage.lastSentence, textHash,
                                     Self.blob(passage.vector)])
            }
        }
    }

    /// The text hash each entry's vectors under `model` were made from.
    public func passageVectorHashes(model: String) throws -> [Int64: String] {
        try pool.read { db in
            var hashes: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT DISTINCT entryId, textHash FROM passage_vector WHERE model = ?", arguments: [model]) {
                hashes[row["entryId"]] = row["textHash"]
            }
            return hashes
        }
    }

    /// The vectors under `model` of the entries given (every entry's when nil).
    public func passageVectors(model: String, entries: Set<Int64>? = nil) throws -> [PassageVector] {
        try pool.read { db in
            try Row.fetchCursor(db, sql: "SELECT entryId, firstSentence, lastSentence, vector FROM passage_vector WHERE model = ?",
                                arguments: [model]).compactMap { row -> PassageVector? in
                let entryId: Int64 = row["entryId"]
                if let entries, !entries.contains(entryId) { return nil }
                return PassageVector(entryId: entryId, firstSentence: row["firstSentence"], lastSentence: row["lastSentence"],
                                     vector: Self.floats(row["vector"]))
            }.reduce(into: []) { $0.append($1) }
        }
    }

    static func blob(_ vector: [Float]) -> Data {
        var data = Data(capacity: vector.count * 4)
        for value in vector { withUnsafeBytes(of: value.bitPattern.littleEndian) { data.append(contentsOf: $0) } }
        return data
    }

    static func floats(_ data: Data) -> [Float] {
        stride(from: 0, to: data.count - 3, by: 4).map { offset in
            let bits = data[data.startIndex + offset..<data.startIndex + offset + 4].enumerated()
                .reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            return Float(bitPattern: bits)
        }
    }
}
