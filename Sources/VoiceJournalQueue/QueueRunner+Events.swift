import Foundation

extension QueueRunner {
    /// A run's events as they happen, and then how it ended. The stream ends when the run
    /// does; a task that stops iterating because it was cancelled stops the run (its claimed
    /// jobs go back to the queue).
    public struct EventStream: AsyncSequence, Sendable {
        public typealias Element = Event
        public typealias Failure = Never

        let events: AsyncStream<Event>
        let outcome: Task<Summary, any Error>

        public func makeAsyncIterator() -> AsyncStream<Event>.Iterator { events.makeAsyncIterator() }

        /// Waits for the run to end: its summary, or what `run(until:onEvent:)` throws.
        /// Cancelling the waiting task stops the run.
        public var summary: Summary {
            get async throws {
                try await withTaskCancellationHandler { try await outcome.value } onCancel: { outcome.cancel() }
            }
        }
    }

    /// Starts a run until `goal` (a runner runs once) and gives its events as a stream, so a
    /// caller reacts to each as it comes instead of looking at shared state on a timer.
    public func events(until goal: Goal) -> EventStream {
        let (events, continuation) = AsyncStream.makeStream(of: Event.self)
        let outcome = Task {
            defer { continuation.finish() }
            return try await run(until: goal) { continuation.yield($0) }
        }
        continuation.onTermination = { termination in
            if case .cancelled = termination { outcome.cancel() }
        }
        return EventStream(events: events, outcome: outcome)
    }
}
