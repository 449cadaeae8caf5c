import VoiceJournalQueue
import VoiceJournalTerminal

extension RunProgress {
    /// The text a runner's event adds to the display, if any. Only jobs in `scope` (nil:
    /// every job) move the bar: a live recording taken meanwhile does not.
    package mutating func text(for event: QueueRunner.Event, scope: BatchScope?) -> String? {
        func counted(_ jobId: Int64) -> Bool { scope?.contains(jobId) ?? true }
        switch event {
        case .started:
            return nil
        case let .chunksDone(jobId, path, done, total):
            return chunksDone(jobId: jobId, path: path, done: done, total: total, counted: counted(jobId))
        case let .transcribed(jobId, path, seconds):
            return transcribed(jobId: jobId, path: path, seconds: seconds, counted: counted(jobId))
        case let .failed(jobId, path, message):
            return failed(jobId: jobId, path: path, message: message, counted: counted(jobId))
        case let .suspect(_, path, message):
            return suspect(path: path, message: message)
        case let .untranslated(_, path, message):
            return untranslated(path: path, message: message)
        case let .willRetry(_, path, error, after):
            return willRetry(path: path, error: error.description, after: after)
        case let .endpointDown(endpoint, message, retryingFor):
            return endpointDown(endpoint, message: message, retryingFor: retryingFor)
        case let .endpointBack(endpoint):
            return endpointBack(endpoint)
        case let .endpointDropped(endpoint, message):
            return endpointDropped(endpoint, message: message)
        }
    }
}

extension EndpointFigures: EndpointTableRow {}
