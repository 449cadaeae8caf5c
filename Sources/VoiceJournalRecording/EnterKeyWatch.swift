import Foundation
import VoiceJournalSystem

/// Calls back once when Enter is pressed on standard input (to press a take's `StopButton`),
/// from a thread of its own. End of input is not Enter: with stdin at /dev/null or a closed
/// pipe it never calls. `cancel()` ends the watch.
package final class EnterKeyWatch: Sendable {
    private let watch: InputWatch

    package init(_ pressed: @escaping @Sendable () -> Void) {
        watch = InputWatch(input: STDIN_FILENO, name: "voicejournal enter key") { bytes in
            guard bytes.contains(UInt8(ascii: "\n")) else { return true }
            pressed()
            return false
        }
    }

    /// Stops watching.
    package func cancel() { watch.cancel() }
}
