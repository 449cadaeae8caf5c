import Foundation

/// How periodic each frame of a stream is, and at what pitch: the evidence of a vocal fold
/// vibrating that tells a voice from noise, a cough or a click.
///
/// The samples are decimated to about 4 kHz (a mean of `factor` samples, then a low-pass at
/// 900 Hz, where a voice's strongest harmonics lie, and a high-pass near 30 Hz against a DC
/// offset), and each frame's normalised autocorrelation is taken over the pitch periods of
/// 70–400 Hz. Room noise stays below about 0.6, a voice's vowels above 0.7 (measured on
/// espeak-ng and recorded speech over room noise). Only frames loud enough to be speech are
/// measured: on quiet audio the meter costs an addition per sample and a few operations per
/// decimated one.
struct VoicingMeter: Sendable {
    /// One frame's measurement.
    struct Reading: Sendable, Equatable {
        /// The highest normalised autocorrelation over the pitch lags, 0...1 (1: a perfect
        /// repetition; room noise mostly stays below 0.6).
        var periodicity: Float
        /// The pitch at that peak, in Hz (0 when not measured).
        var pitchHz: Float

        static let unmeasured = Reading(periodicity: 0, pitchHz: 0)
    }

    /// Input samples averaged into one decimated sample.
    let factor: Int
    /// The decimated rate.
    let rate: Double
    private let shortestLag: Int
    private let longestLag: Int
    /// Decimated samples, oldest first; the latest `needed` of them are measured. Twice that
    /// is kept so the buffer shifts once per `needed` samples, not once per sample.
    private var history: [Float]
    private let windowLength: Int
    private let needed: Int
    private var filled = 0
    private var sum: Float = 0
    private var summed = 0
    // Low-pass biquad state (direct form II transposed) and high-pass memory.
    private var z1: Float = 0
    private var z2: Float = 0
    private var previous: Float = 0
    private var highPassed: Float = 0
    private let b0: Float, b1: Float, b2: Float, a1: Float, a2: Float

    /// A meter for frames of `samplesPerFrame` samples at `sampleRate`.
    init(sampleRate: Int, samplesPerFrame: Int) {
        factor = max(sampleRate / 4_000, 1)
        rate = Double(sampleRate) / Double(factor)
        shortestLag = max(Int((rate / 400).rounded(.down)), 2)
        longestLag = max(Int((rate / 70).rounded(.up)), shortestLag + 2)
        let frameLength = max(samplesPerFrame / factor, 1)
        // The correlation runs over at least one frame and at least the longest period, so a
        // low voice repeats at least once inside it.
        windowLength = max(frameLength, longestLag)
        // The vector loop reads up to eight lags past the longest.
        needed = windowLength + longestLag + 9
        history = [Float](repeating: 0, count: 2 * needed)
        // RBJ cookbook low-pass, Q = 0.707, at 900 Hz (or below Nyquist at low rates).
        let cutoff = min(900, rate * 0.45)
        let omega = 2 * Double.pi * cutoff / rate
        let alpha = sin(omega) / (2 * 0.7071)
        let a0 = 1 + alpha
        b0 = Float((1 - cos(omega)) / 2 / a0)
        b1 = Float((1 - cos(omega)) / a0)
        b2 = b0
        a1 = Float(-2 * cos(omega) / a0)
        a2 = Float((1 - alpha) / a0)
    }

    /// Takes the next input samples (every sample of the stream, in order).
    @inline(__always)
    mutating func add(_ sample: Float) {
        sum += sample
        summed += 1
        guard summed == factor else { return }
        let mean = sum / Float(factor)
        sum = 0
        summed = 0
        let low = b0 * mean + z1
        z1 = b1 * mean - a1 * low + z2
        z2 = b2 * mean - a2 * low
        // A first-order high-pass takes out a microphone's DC offset and the rumble below
        // a voice, both of which would correlate at every lag.
        highPassed = low - previous + 0.95 * highPassed
        previous = low
        push(highPassed)
    }

    private mutating func push(_ value: Float) {
        if filled == history.count {
            history.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                base.update(from: base + (buffer.count - needed), count: needed)
            }
            filled = needed
        }
        history[filled] = value
        filled += 1
    }

    /// The periodicity of the samples up to now (call at the end of each frame), or
    /// `.unmeasured` when `measure` is false (a quiet frame): the history moves on either way.
    mutating func closeFrame(measure: Bool) -> Reading {
        guard measure, filled >= needed else { return .unmeasured }
        return history.withUnsafeBufferPointer { buffer in
            let latest = UnsafeBufferPointer(rebasing: buffer[(filled - needed)..<filled])
            return Self.periodicity(of: latest, window: windowLength, lags: shortestLag...longestLag, rate: rate)
        }
    }

    /// The normalised autocorrelation peak of `x` over `lags`: for each lag τ, 2·Σx[n]x[n+τ] /
    /// (Σx[n]² + Σx[n+τ]²) over n < `window` (1 for a perfect repetition, whatever the
    /// loudness). The pitch is the shortest lag whose local maximum comes within 5 % of the
    /// best (so a voice is not heard an octave low), refined by a parabola through its neighbours.
    static func periodicity(of x: UnsafeBufferPointer<Float>, window: Int, lags: ClosedRange<Int>, rate: Double) -> Reading {
        // The vector loop below reads eight lags at a time, up to seven past the last.
        guard let base = x.baseAddress, lags.lowerBound >= 1, x.count >= window + lags.upperBound + 9 else { return .unmeasured }
        let count = lags.upperBound + 2
        return withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * count) { scratch in
            let correlation = UnsafeMutableBufferPointer(rebasing: scratch[0..<count])
            let energyAt = UnsafeMutableBufferPointer(rebasing: scratch[count..<(2 * count)])
            // The energy of every shifted window, by a running sum.
            var energy: Float = 0
            for n in 0..<window { energy += x[n] * x[n] }
            let head = energy
            energyAt[0] = energy
            for lag in 1..<count {
                energy += x[lag + window - 1] * x[lag + window - 1] - x[lag - 1] * x[lag - 1]
                energyAt[lag] = max(energy, 0)
            }
            guard head > 0 else { return .unmeasured }
            // Eight lags at a time: one vector multiply-add per sample of the window.
            let raw = UnsafeRawPointer(base)
            var first = lags.lowerBound - 1
            while first < count {
                var sums = SIMD8<Float>(repeating: 0)
                for n in 0..<window {
                    sums += SIMD8(repeating: base[n])
                        * raw.loadUnaligned(fromByteOffset: (n + first) * MemoryLayout<Float>.stride, as: SIMD8<Float>.self)
                }
                for k in 0..<8 where first + k < count { correlation[first + k] = sums[k] }
                first += 8
            }
            func normalised(_ lag: Int) -> Float {
                let denominator = head + energyAt[lag]
                return denominator > 0 ? 2 * correlation[lag] / denominator : 0
            }
            func isPeak(_ lag: Int) -> Bool { normalised(lag) > normalised(lag - 1) && normalised(lag) >= normalised(lag + 1) }
            var best: Float = 0
            for lag in lags where isPeak(lag) { best = max(best, normalised(lag)) }
            guard best > 0, let chosen = lags.first(where: { isPeak($0) && normalised($0) >= best * 0.95 }) else {
                return Reading(periodicity: 0, pitchHz: 0)
            }
            let left = normalised(chosen - 1), centre = normalised(chosen), right = normalised(chosen + 1)
            let curvature = left - 2 * centre + right
            let offset = curvature < 0 ? max(min(0.5 * (left - right) / curvature, 0.5), -0.5) : 0
            return Reading(periodicity: min(best, 1), pitchHz: Float(rate) / (Float(chosen) + offset))
        }
    }
}
