import Foundation

/// What a stretch of sound (frames loud enough to be speech, short gaps bridged) holds that
/// tells a voice from other sounds, gathered frame by frame in a few running sums so a stretch
/// of any length costs the same memory.
///
/// A voice is periodic (the vocal folds) but never steady: its loudness rises and falls with
/// the syllables and its pitch glides. So a stretch is voice when enough of its frames are
/// voiced and it moves; a cough, a fan or a click cluster is not periodic, a hum, a held chord
/// or a test tone is periodic and still.
struct VoiceEvidence: Sendable, Equatable {
    /// The thresholds a stretch is judged by.
    struct Rules: Sendable, Equatable {
        /// A frame is voiced when its periodicity reaches this.
        var voicedPeriodicity: Float
        /// Fewer voiced frames than this is no voice (a click's ringing, a squeak).
        var fewestVoicedFrames: Int
        /// Below this share of voiced frames among the loud ones, the stretch is noise that
        /// happens to repeat now and then.
        var smallestVoicedShare: Double
        /// A stretch whose loudness varies less than this (standard deviation of its loud
        /// frames' levels, dB) ...
        var steadyLevelDB: Double
        /// ... and whose pitch moves less than this (mean change between voiced frames, in
        /// semitones), or stands still in at least `stillShare` of its steps (a note whose
        /// pitch reading now and then jumps to a multiple), is a held note, not speech.
        var steadyPitchSemitones: Double
        var stillShare: Double
        /// Stretches with fewer voiced frames than this are too short to call steady: a short
        /// word can be a single held vowel.
        var steadinessFrames: Int
    }

    private(set) var loudFrames = 0
    private(set) var voicedFrames = 0
    private var levelSum = 0.0
    private var levelSquares = 0.0
    private var pitchSteps = 0.0
    private var pitchStepCount = 0
    /// Steps smaller than `stillStep`: a held note's pitch, read well, does not move at all.
    private var stillSteps = 0
    /// A pitch step smaller than this (in semitones) is no movement; a voice's glides and
    /// jitter move it more from one 20 ms frame to the next in most frames.
    static let stillStep = 0.06
    private var lastSemitone: Double?

    /// Takes one loud frame of the stretch.
    mutating func addLoud(levelDBFS: Double, reading: VoicingMeter.Reading, rules: Rules) {
        loudFrames += 1
        levelSum += levelDBFS
        levelSquares += levelDBFS * levelDBFS
        guard reading.periodicity >= rules.voicedPeriodicity, reading.pitchHz > 0 else {
            lastSemitone = nil
            return
        }
        voicedFrames += 1
        let semitone = 12 * log2(Double(reading.pitchHz) / 100)
        // A jump of more than two semitones between neighbouring frames is a mistaken
        // octave or a new voice, not a glide.
        if let last = lastSemitone, abs(semitone - last) < 2 {
            pitchSteps += abs(semitone - last)
            pitchStepCount += 1
            if abs(semitone - last) < Self.stillStep { stillSteps += 1 }
        }
        lastSemitone = semitone
    }

    /// Notes a bridged gap inside the stretch: the pitch track starts again after it.
    mutating func addGap() { lastSemitone = nil }

    /// How much the loudness of the loud frames varies: their levels' standard deviation, in dB.
    var levelSpreadDB: Double {
        guard loudFrames > 1 else { return 0 }
        let mean = levelSum / Double(loudFrames)
        return max(levelSquares / Double(loudFrames) - mean * mean, 0).squareRoot()
    }

    /// How far the pitch moves from one voiced frame to the next, on average, in semitones.
    var meanPitchStep: Double { pitchStepCount > 0 ? pitchSteps / Double(pitchStepCount) : 0 }

    /// The share of pitch steps that do not move (see `stillStep`).
    var stillShare: Double { pitchStepCount > 0 ? Double(stillSteps) / Double(pitchStepCount) : 0 }

    /// The share of the loud frames that are voiced.
    var voicedShare: Double { loudFrames > 0 ? Double(voicedFrames) / Double(loudFrames) : 0 }

    /// Whether the stretch is a voice by `rules`.
    func isVoice(_ rules: Rules) -> Bool {
        guard voicedFrames >= rules.fewestVoicedFrames, voicedShare >= rules.smallestVoicedShare else { return false }
        // Gaps inside the stretch are not asked about: a click in the room during a hum
        // bridges into it.
        let steady = voicedFrames >= rules.steadinessFrames && levelSpreadDB < rules.steadyLevelDB
            && (meanPitchStep < rules.steadyPitchSemitones || stillShare >= rules.stillShare)
        return !steady
    }
}
