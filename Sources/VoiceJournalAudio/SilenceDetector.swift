/// Decides when a take has ended in silence: speech was heard, then `seconds` of audio
/// stayed below the threshold. Counted in frames, so it behaves the same at any speed.
package struct SilenceDetector: Sendable {
    /// Block RMS below this counts as silence; at or above it, as speech.
    package let thresholdDBFS: Double
    /// How much quiet after speech ends the take.
    package let silentFramesToStop: Int64
    /// Whether any block has reached the threshold yet (quiet before speaking never stops a take).
    package private(set) var heardSpeech = false
    private var silentFrames: Int64 = 0

    /// The default threshold sits well above a quiet room and well below speech.
    package static let defaultThresholdDBFS = -40.0

    package init(seconds: Double, sampleRate: Int, thresholdDBFS: Double = SilenceDetector.defaultThresholdDBFS) {
        self.thresholdDBFS = thresholdDBFS
        self.silentFramesToStop = max(Int64((seconds * Double(sampleRate)).rounded()), 1)
    }

    /// Feeds one measured block of `frames` frames; true once the take should end after it.
    package mutating func shouldStop(after reading: LevelMeter.Reading, frames: Int) -> Bool {
        if reading.rmsDBFS >= thresholdDBFS {
            heardSpeech = true
            silentFrames = 0
            return false
        }
        guard heardSpeech else { return false }
        silentFrames += Int64(frames)
        return silentFrames >= silentFramesToStop
    }
}
