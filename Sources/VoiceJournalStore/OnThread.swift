import Foundation

/// Runs blocking work (an SQLite read or write, hashing a file, closing an encoder) on a
/// thread of its own, never on the cooperative pool, and gives back its result. The one way
/// every module does this: a blocked pool thread would stall every other task of the process.
package func onThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        let thread = Thread { continuation.resume(with: Swift.Result { try work() }) }
        thread.name = "voicejournal blocking work"
        thread.start()
    }
}
