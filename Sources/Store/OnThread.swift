import Foundation

/// Runs blocking work (SQLite, file hashing) on a thread of its own, never on the cooperative
/// pool, and gives back its result.
package func onThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}
