import Foundation
import Synchronization
import VoiceJournalTerminal
import VoiceJournalSystem

/// Reads keys from a terminal on a thread of its own and hands each to `pressed`, until
/// `cancel()` or the end of input.
final class KeyReader: Sendable {
    private let watch: InputWatch

    init(input: Int32, pressed: @escaping @Sendable (KeyPress) -> Void) {
        // A cut escape sequence waits in the parser for the rest; only the watch's thread uses it.
        let keys = Mutex(KeyPress.Reader())
        watch = InputWatch(input: input, name: "voicejournal player keys") { bytes in
            for key in keys.withLock({ $0.keys(from: bytes) }) { pressed(key) }
            return true
        }
    }

    /// Stops reading.
    func cancel() { watch.cancel() }
}
