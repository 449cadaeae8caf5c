import Foundation
import Queue
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
    /// The first wait after the server refused the key; it doubles while refusals go on.
    let firstPause: Duration
    private let nudged = Mutex(true)
    /// How often the queue is looked at without a nudge (answers queued by other commands).
    static let poll: Duration = .seconds(2)
    /// The longest wait between tries of a server that refuses the key.
    static let longestPause: Duration = .seconds(600)

    init(store: JournalStore, firstPause: Duration = .seconds(30), makeRunner: @escaping @Sendable () throws -> QueueRunner) {
        self.store = store
        self.firstPause = firstPause
        self.makeRunner = makeRunner
    }

    /// A new answer is queued: look now.
    func nudge() { nudged.withLock { $0 = true } }

    /// Transcribes until cancelled. A server that refuses the key (or has no quota) is left
    /// alone for a while, then tried again — keys get fixed and quotas refilled while a server
    /// runs for weeks — with the wait doubling up to ten minutes; answers stay queued meanwhile.
    /// An unreachable server is tried again on the next look.
    func run() async {
        var waited: Duration = .zero
        var refusedPause: Duration?
        while !Task.isCancelled {
            let look = nudged.withLock { value in defer { value = false }; return value } || waited >= Self.poll
            if look {
                waited = .zero
                do {
                    if try store.queue.unfinishedJobCount() > 0 {
                        let summary = try await makeRunner().run(until: .drainQueue)
                        if refusedPause != nil { printNow("Transcription is running again.") }
                        refusedPause = nil
                        if summary.transcribed > 0 || summary.failed > 0 {
                            printNow("Transcribed \(summary.transcribed) answer\(summary.transcribed == 1 ? "" : "s")"
                                + (summary.failed > 0 ? ", \(summary.failed) failed (see: voicejournal queue list --state failed)" : "") + ".")
                        }
                    }
                } catch is CancellationError {
                    return
                } catch let error as TranscriptionError where error.disposition == .stopRun {
                    let pause = refusedPause.map { min($0 * 2, Self.longestPause) } ?? firstPause
                    refusedPause = pause
                    printNotice("transcription paused: \(error.description); answers stay queued; trying again in "
                        + "\(Int((Double(pause.components.seconds) + Double(pause.components.attoseconds) / 1e18).rounded(.up))) s")
                    do { try await Task.sleep(for: pause) } catch { return }
                    nudge()  // the next look is the probe
                    continue
                } catch {
                    printNotice("transcription paused: \(error); trying again shortly")
                }
            }
            do { try await Task.sleep(for: .milliseconds(200)) } catch { return }
            waited += .milliseconds(200)
        }
    }
}
