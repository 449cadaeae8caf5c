import Foundation

/// Where a recording holds speech and where it pauses, measured while its samples stream past.
///
/// The samples (mono Float, full scale ±1, usually 16 kHz) are cut into short frames (20 ms).
/// A frame is loud when its RMS level stands `marginDB` above the local noise floor and above
/// `quietestSpeechDBFS`. The noise floor adapts: it is a low percentile of the frame levels in
/// a window centred on the frame, so a fan that starts halfway through, or a room that gets
/// louder, still leaves the pauses between phrases visible. Loud frames make stretches: gaps
/// shorter than the hangover (the closures inside and between words) are bridged, and blips
/// shorter than `shortestSpeechSeconds` (clicks) are dropped.
///
/// Loudness alone would also hear a cough, a click cluster, a fan turned up, a hummed chord or
/// a test tone, so a stretch is speech only when it sounds like a voice (`requiresVoice`):
/// enough of its frames are periodic at a speaking pitch (`VoicingMeter`), and it moves, in
/// loudness or in pitch, as syllables do (`VoiceEvidence`). Uploads then hold speech only.
///
/// Memory stays small on any length: only the floor window's frames (a level byte and a
/// voicing reading each), a few running sums for the stretch being built and the speech
/// ranges found so far are kept. Where it cannot tell, it says speech: a short voiced stretch
/// is too short to call steady, and a stretch that is loud and voiced enough is kept whole,
/// since sending a little noise costs a few bytes and dropping a quiet word loses it.
package struct SpeechMap: Sendable {
    /// How frames are measured and judged; the defaults suit speech at 16 kHz.
    package struct Settings: Sendable, Equatable {
        /// Length of one measured frame.
        package var frameSeconds: Double
        /// How far above the local noise floor a frame must be to count as speech.
        package var marginDB: Double
        /// Nothing quieter than this is speech, however quiet the room.
        package var quietestSpeechDBFS: Double
        /// The noise floor is never taken above this, so that a stretch with no pause at all
        /// (one long sentence, music) is still speech: everything louder than
        /// `noiseFloorCeilingDBFS + marginDB` always counts.
        package var noiseFloorCeilingDBFS: Double
        /// Length of the window, centred on each frame, that the noise floor is taken from.
        package var floorWindowSeconds: Double
        /// Which quantile of the window's frame levels is the noise floor (0.1 = the quietest 10 %).
        package var floorQuantile: Double
        /// Gaps in speech shorter than this are not pauses (stop consonants, breaths between words).
        package var hangoverSeconds: Double
        /// Speech shorter than this is a click, not a word.
        package var shortestSpeechSeconds: Double
        /// Whether a loud stretch must also sound like a voice (periodic, and moving) to be
        /// speech; false judges by loudness alone.
        package var requiresVoice: Bool
        /// A frame is voiced when its normalised autocorrelation at some pitch of 70–400 Hz
        /// reaches this.
        package var voicedPeriodicity: Double
        /// A stretch with less voiced audio than this is not a voice.
        package var shortestVoicedSeconds: Double
        /// A stretch whose voiced frames are fewer than this share of its loud ones is not a voice.
        package var smallestVoicedShare: Double
        /// A stretch with more voiced audio than `steadinessSeconds` whose loudness varies
        /// less than `steadyLevelDB` (standard deviation of its loud frames) and whose pitch
        /// moves less than `steadyPitchSemitones` from frame to frame (on average) is a held
        /// note (a hum, a chord, a tone), not speech.
        package var steadinessSeconds: Double
        /// See `steadinessSeconds`.
        package var steadyLevelDB: Double
        /// See `steadinessSeconds`.
        package var steadyPitchSemitones: Double
        /// A stretch as in `steadinessSeconds` whose pitch stands still (moves less than 0.06
        /// semitones) in at least this share of its frame-to-frame steps is a held note too,
        /// however far its reading now and then jumps.
        package var stillPitchShare: Double

        package init(frameSeconds: Double = 0.02, marginDB: Double = 10, quietestSpeechDBFS: Double = -55,
                    noiseFloorCeilingDBFS: Double = -40, floorWindowSeconds: Double = 20,
                    floorQuantile: Double = 0.1, hangoverSeconds: Double = 0.15,
                    shortestSpeechSeconds: Double = 0.08, requiresVoice: Bool = true,
                    voicedPeriodicity: Double = 0.65, shortestVoicedSeconds: Double = 0.1,
                    smallestVoicedShare: Double = 0.2, steadinessSeconds: Double = 0.1,
                    steadyLevelDB: Double = 4, steadyPitchSemitones: Double = 0.12, stillPitchShare: Double = 0.5) {
            self.frameSeconds = frameSeconds
            self.marginDB = marginDB
            self.quietestSpeechDBFS = quietestSpeechDBFS
            self.noiseFloorCeilingDBFS = noiseFloorCeilingDBFS
            self.floorWindowSeconds = floorWindowSeconds
            self.floorQuantile = floorQuantile
            self.hangoverSeconds = hangoverSeconds
            self.shortestSpeechSeconds = shortestSpeechSeconds
            self.requiresVoice = requiresVoice
            self.voicedPeriodicity = voicedPeriodicity
            self.shortestVoicedSeconds = shortestVoicedSeconds
            self.smallestVoicedShare = smallestVoicedShare
            self.steadinessSeconds = steadinessSeconds
            self.steadyLevelDB = steadyLevelDB
            self.steadyPitchSemitones = steadyPitchSemitones
            self.stillPitchShare = stillPitchShare
        }
    }

    /// Samples per second of the audio being measured.
    package let sampleRate: Int
    package let settings: Settings
    /// Samples measured so far.
    package private(set) var sampleCount: Int64 = 0
    /// Keep every stretch's judgement for `judgedStretches` (tuning only: grows with length).
    var keepsJudgements: Bool {
        get { classifier.keepsJudgements }
        set { classifier.keepsJudgements = newValue }
    }

    let samplesPerFrame: Int
    private var partial = (squares: 0.0, count: 0)
    private var peak: Float = 0
    private var levels = FrameLevelWindow()
    private var classifier: SpeechRunBuilder
    private var voicing: VoicingMeter
    private var frameCount = 0
    /// The next block of frames to judge; blocks share one noise floor.
    private var nextBlock = 0
    private let blockFrames = 25
    private let halfWindowFrames: Int

    /// A map of nothing yet; feed it with `append`.
    package init(sampleRate: Int = 16_000, settings: Settings = Settings()) {
        self.sampleRate = max(sampleRate, 1)
        self.settings = settings
        samplesPerFrame = max(Int((settings.frameSeconds * Double(max(sampleRate, 1))).rounded()), 1)
        let frameSeconds = Double(samplesPerFrame) / Double(max(sampleRate, 1))
        halfWindowFrames = max(Int((settings.floorWindowSeconds / 2 / frameSeconds).rounded()), 1)
        func frames(_ seconds: Double) -> Int { Int((seconds / frameSeconds).rounded()) }
        let rules = VoiceEvidence.Rules(
            voicedPeriodicity: Float(settings.voicedPeriodicity), fewestVoicedFrames: max(frames(settings.shortestVoicedSeconds), 1),
            smallestVoicedShare: settings.smallestVoicedShare, steadyLevelDB: settings.steadyLevelDB,
            steadyPitchSemitones: settings.steadyPitchSemitones, stillShare: settings.stillPitchShare,
            steadinessFrames: frames(settings.steadinessSeconds))
        classifier = SpeechRunBuilder(bridgeFrames: frames(settings.hangoverSeconds),
                                      shortestFrames: max(frames(settings.shortestSpeechSeconds), 1),
                                      rules: settings.requiresVoice ? rules : nil)
        voicing = VoicingMeter(sampleRate: self.sampleRate, samplesPerFrame: samplesPerFrame)
    }

    /// Measures the next stretch of mono samples.
    package mutating func append(_ samples: UnsafeBufferPointer<Float>) {
        var index = 0
        while index < samples.count {
            let take = min(samplesPerFrame - partial.count, samples.count - index)
            var squares = 0.0
            for sample in samples[index..<(index + take)] {
                squares += Double(sample) * Double(sample)
                peak = max(peak, abs(sample))
                voicing.add(sample)
            }
            partial.squares += squares
            partial.count += take
            index += take
            if partial.count == samplesPerFrame { closeFrame() }
        }
        sampleCount += Int64(samples.count)
        judgeReadyBlocks(final: false)
    }

    /// Measures the next stretch of mono samples held in an array.
    package mutating func append(_ samples: [Float]) {
        samples.withUnsafeBufferPointer { append($0) }
    }

    /// The loudest sample measured so far, in dBFS (-infinity for digital silence): a map
    /// that heard no speech in audio that is not silent either is worth a word to the user.
    package var peakDBFS: Double { peak > 0 ? 20 * log10(Double(peak)) : -.infinity }

    /// Length of the audio measured so far, in seconds.
    package var durationSeconds: Double { Double(sampleCount) / Double(sampleRate) }

    /// The speech found, as sample ranges in order, not overlapping. Judging the last few
    /// seconds needs the whole floor window, so this finishes a copy of the map: cheap, and the
    /// map itself can go on taking samples.
    package var speechRanges: [Range<Int64>] {
        var finished = self
        if finished.partial.count > 0 { finished.closeFrame() }
        finished.judgeReadyBlocks(final: true)
        let frameLength = Int64(samplesPerFrame)
        return finished.classifier.finished().map { frames in
            Int64(frames.lowerBound) * frameLength..<min(Int64(frames.upperBound) * frameLength, sampleCount)
        }
    }

    /// The speech found, in seconds from the start.
    package var speechIntervals: [Range<Double>] {
        speechRanges.map { seconds($0.lowerBound)..<seconds($0.upperBound) }
    }

    /// The pauses between stretches of speech, in seconds; leading and trailing silence are
    /// not pauses (see `firstSpeechSeconds` and `lastSpeechSeconds`).
    package var pauseIntervals: [Range<Double>] {
        let speech = speechIntervals
        return zip(speech, speech.dropFirst()).map { $0.upperBound..<$1.lowerBound }
    }

    /// Where speech begins, or nil when none was heard.
    package var firstSpeechSeconds: Double? { speechIntervals.first?.lowerBound }

    /// Where speech ends, or nil when none was heard.
    package var lastSpeechSeconds: Double? { speechIntervals.last?.upperBound }

    /// Where speech begins and ends, for an `UploadPlan`.
    package var speechExtent: SpeechExtent {
        let speech = speechRanges
        guard let first = speech.first, let last = speech.last else { return .silent }
        return .spans(firstSeconds: seconds(first.lowerBound), lastSeconds: seconds(last.upperBound))
    }

    /// The rules stretches are judged by (nil: loudness alone).
    var voiceRules: VoiceEvidence.Rules? { classifier.rules }

    /// Every loud stretch found so far with its voice evidence (for tuning and tests).
    var judgedStretches: [(seconds: Range<Double>, evidence: VoiceEvidence)] {
        var finished = self
        if finished.partial.count > 0 { finished.closeFrame() }
        finished.judgeReadyBlocks(final: true)
        let frameSeconds = Double(samplesPerFrame) / Double(sampleRate)
        return finished.classifier.finishedJudgements().map {
            (Double($0.0.lowerBound) * frameSeconds..<Double($0.0.upperBound) * frameSeconds, $0.1)
        }
    }

    /// How many frame levels the map holds now (for tests: memory must not grow with length).
    var storedFrameCount: Int { levels.storedCount }

    private func seconds(_ sample: Int64) -> Double { Double(sample) / Double(sampleRate) }

    private mutating func closeFrame() {
        let meanSquare = partial.count > 0 ? partial.squares / Double(partial.count) : 0
        let dbfs = meanSquare > 0 ? 10 * log10(meanSquare) : -.infinity
        // Only a frame that could be speech is worth the autocorrelation.
        let reading = voicing.closeFrame(measure: settings.requiresVoice && dbfs >= settings.quietestSpeechDBFS)
        levels.append(FrameLevelWindow.code(dbfs: dbfs), reading: reading)
        partial = (0, 0)
        frameCount += 1
    }

    /// Judges every block whose floor window has fully arrived (or all of them at the end).
    private mutating func judgeReadyBlocks(final: Bool) {
        while nextBlock * blockFrames < frameCount {
            let first = nextBlock * blockFrames
            let centre = first + blockFrames / 2
            guard final || centre + halfWindowFrames < frameCount else { return }
            let floor = levels.quantileDBFS(settings.floorQuantile,
                                            frames: max(centre - halfWindowFrames, 0)..<min(centre + halfWindowFrames + 1, frameCount))
            let threshold = max(min(floor, settings.noiseFloorCeilingDBFS) + settings.marginDB,
                                settings.quietestSpeechDBFS)
            for frame in first..<min(first + blockFrames, frameCount) {
                let level = levels.dbfs(frame: frame)
                classifier.add(frame: frame, isLoud: level >= threshold, levelDBFS: level, reading: levels.reading(frame: frame))
            }
            nextBlock += 1
            // Frames before the next block and before its window are never read again.
            let nextWindowStart = nextBlock * blockFrames + blockFrames / 2 - halfWindowFrames
            levels.forget(before: max(min(nextBlock * blockFrames, nextWindowStart), 0))
        }
    }
}

/// Where speech begins and ends in a recording, as far as an upload plan needs to know.
package enum SpeechExtent: Sendable, Equatable {
    /// The audio was not measured: assume speech throughout.
    case notMeasured
    /// No speech at all: nothing should be uploaded.
    case silent
    /// Speech from the first to the last second given (seconds from the start of the file).
    case spans(firstSeconds: Double, lastSeconds: Double)
}
