import Foundation

/// A row of the journal with an integer primary key: `id` is nil only on a value not
/// inserted yet. Code that reads a row or has just inserted one asks for `storedId()`, so
/// a missing id is an error and never silently becomes 0 (no row has id 0).
package protocol StoredRow {
    var id: Int64? { get }
}

extension StoredRow {
    /// The row's id; throws `StoreError.inconsistent` when it has none.
    package func storedId() throws -> Int64 {
        guard let id else { throw StoreError.inconsistent("a \(Self.self) row has no id") }
        return id
    }
}

extension Journal: StoredRow {}
extension Person: StoredRow {}
extension Question: StoredRow {}
extension Assignment: StoredRow {}
extension Entry: StoredRow {}
extension Recording: StoredRow {}
extension Job: StoredRow {}
