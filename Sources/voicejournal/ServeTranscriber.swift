import Foundation
import Pipeline
import Store
import Synchronization
import Transcription

/// `serve --transcribe`: runs the queue in the server's process, a fresh runner each time
/// answers are waiting, so an answer is transcribed as soon as it arrives. Uses only the
/// runner's public API (`makeRunner`, `run(until: .drainQueue)`); cancelling the task stops
/// the runner and its jobs go back to the queue.
final class ServeTranscriber: Sendable {
    let store: JournalStore
    let makeRunner: @Sendable () throws -> QueueRunner
    private let nudged = Mutex(true)
    /// How often the queue is looked at without a nudge (answers queued by other commands).
    static let poll: Duration = .seconds(2)

    init(store: JournalStore, makeRunner: @escaping @Sendable () throws -> QueueRunner) {
        self.store = store
        self.makeRunner = makeRunner
    }

    /// A new answer is queued: look now.
    func nudge() { nudged.withLock { $0 = true } }

    /// Transcribes until cancelled. A refused key stops transcription (answers stay queued);
    /// an unreachable server is tried again on the next look.
    func run() async {
        var waited: Duration = .zero
        while !Task.isCancelled {
            let look = nudged.withLock { value in defer { value = false }; return value } || waited >= Self.poll
            if look {
                waited = .zero
                do {
                    if try store.unfinishedJobCount() > 0 {
                        let summary = try await makeRunner().run(until: .drainQueue)
                        if summary.transcribed > 0 || summary.failed > 0 {
                            printNow("Transcribed \(summary.transcribed) answer\(summary.transcribed == 1 ? "" : "s")"
                                + (summary.failed > 0 ? ", \(summary.failed) failed (see: voicejournal queue list --state failed)" : "") + ".")
                        }
                    }
                } catch is CancellationError {
                    return
                } catch let error as TranscriptionError where error.disposition == .stopRun {
                    printNotice("transcription stopped: \(error.description); answers stay queued")
                    return
                } catch {
                    printNotice("transcription paused: \(error); trying again shortly")
                }
            }
            do { try await Task.sleep(for: .milliseconds(200)) } catch { return }
            waited += .milliseconds(200)
        }
    }
}
