import Foundation

/// Lowers the sample rate of mono audio by a whole factor (48 kHz → 16 kHz is 3, 32 kHz → 16 kHz
/// is 2): a low-pass FIR filter evaluated only at the kept samples, so the samples thrown away
/// cost nothing.
///
/// The filter is a Kaiser-windowed sinc: flat (within 0.03 dB) to 7/8 of the new Nyquist
/// frequency (7 kHz at 16 kHz) and at least 50 dB down from 9/8 of it on (9 kHz): what
/// folds back from between 8 and 9 kHz lands above 7 kHz, outside the passband, and nothing
/// folds into it (a filter stopping at 8 kHz would need twice the taps). It is centred on each
/// kept sample: output sample `k` stands where input sample `k × factor` stood (no delay), and
/// `n` input samples give exactly `⌈n / factor⌉` output samples, however they are split into
/// blocks — and the very same samples. Both ends are taken as silence beyond the audio.
///
/// Work is polyphase: the input is split into its `factor` phases (every `factor`-th sample),
/// so eight neighbouring outputs take each tap from eight neighbouring samples of one phase — one
/// vector load — and the filter's symmetry halves the multiplications. Use from one thread.
package final class Decimator {
    /// Input samples per output sample.
    package let factor: Int
    /// Tap `e` weighs input sample `k × factor - halfLength + e` for output `k`; symmetric.
    private let taps: [Float]
    private let halfLength: Int
    /// Input samples from absolute index `produced × factor - halfLength` on (negative indices
    /// are the silence before the audio).
    private var buffer: [Float]
    private var received: Int64 = 0
    private var produced: Int64 = 0
    private var finished = false
    /// The buffer split into phases, reused from block to block.
    private var phases: [Float] = []

    /// A decimator by `factor` (1 passes the audio through untouched; less than 1 counts as 1).
    package init(factor: Int) {
        self.factor = max(factor, 1)
        taps = Self.lowPass(factor: self.factor)
        halfLength = taps.count / 2
        buffer = [Float](repeating: 0, count: halfLength)
    }

    /// The number of filter taps (odd; 1 for a factor of 1).
    package var filterLength: Int { taps.count }

    /// Takes one block of mono samples and returns the output samples it completes (an output
    /// waits for the `filterLength / 2` input samples after it). With `endOfInput`, the rest is
    /// flushed against silence and the decimator is finished.
    package func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool = false) -> [Float] {
        guard !finished else { return [] }
        if factor == 1 {
            finished = endOfInput
            return Array(input)
        }
        buffer.append(contentsOf: input)
        received += Int64(input.count)
        let step = Int64(factor)
        let limit: Int64
        if endOfInput {
            limit = (received + step - 1) / step
            finished = true
        } else {
            // Output k is ready once input k·factor + halfLength has arrived.
            let newest = received - 1 - Int64(halfLength)
            limit = newest < 0 ? produced : max(newest / step + 1, produced)
        }
        let output = filter(count: Int(limit - produced))
        // Keep what the next output's window starts at.
        let drop = min(Int(limit - produced) * factor, buffer.count)
        buffer.removeFirst(drop)
        produced = limit
        return output
    }

    /// `process` for a block held in an array.
    package func process(_ input: [Float], endOfInput: Bool = false) -> [Float] {
        input.withUnsafeBufferPointer { process($0, endOfInput: endOfInput) }
    }

    /// The next `count` outputs, from the buffer (silence past its end).
    private func filter(count: Int) -> [Float] {
        guard count > 0 else { return [] }
        let groups = (count + 7) / 8
        // Output i (from the first not yet made) weighs buffer[i·factor + e] by taps[e]; with
        // e = factor·s + r that is phase r's sample i + s.
        let phaseLength = groups * 8 + (taps.count - 1) / factor + 1
        let needed = phaseLength * factor
        if phases.count < needed { phases = [Float](repeating: 0, count: needed) }
        let factor = self.factor, half = halfLength, taps = self.taps
        var output = [Float](repeating: 0, count: count)
        buffer.withUnsafeBufferPointer { samples in
            phases.withUnsafeMutableBufferPointer { phases in
                guard let phaseBase = phases.baseAddress, let sampleBase = samples.baseAddress else { return }
                // Indices below are bounded by the buffer and phase lengths: wrapping arithmetic
                // spares the overflow checks in the innermost loops.
                for r in 0..<factor {
                    let phase = phaseBase + r &* phaseLength
                    let filled = min(phaseLength, (samples.count &- r &+ factor &- 1) / factor)
                    var source = sampleBase + r
                    for t in 0..<max(filled, 0) {
                        phase[t] = source.pointee
                        source += factor
                    }
                    for t in max(filled, 0)..<phaseLength { phase[t] = 0 }
                }
                // Taps e and 2·half − e are equal: add their samples, multiply once. Offsets in bytes.
                let stride = MemoryLayout<Float>.stride
                func offset(_ e: Int) -> Int { ((e % factor) * phaseLength + e / factor) * stride }
                let pairs = (0..<half).map { (weight: SIMD8<Float>(repeating: taps[$0]), first: offset($0), second: offset(2 * half - $0)) }
                let centre = (weight: SIMD8<Float>(repeating: taps[half]), at: offset(half))
                output.withUnsafeMutableBufferPointer { out in
                    pairs.withUnsafeBufferPointer { pairs in
                        guard let pair0 = pairs.baseAddress, let outBase = out.baseAddress else { return }
                        let pairCount = pairs.count
                        for group in 0..<groups {
                            let first = group &* 8
                            let base = UnsafeRawPointer(phaseBase + first)
                            @inline(__always) func load(_ at: Int) -> SIMD8<Float> {
                                base.loadUnaligned(fromByteOffset: at, as: SIMD8<Float>.self)
                            }
                            // Two sums, so that one addition need not wait for the other.
                            var even = centre.weight * load(centre.at), odd = SIMD8<Float>()
                            var pair = pair0, end = pair0 + (pairCount & ~1)
                            while pair < end {
                                even += pair[0].weight * (load(pair[0].first) + load(pair[0].second))
                                odd += pair[1].weight * (load(pair[1].first) + load(pair[1].second))
                                pair += 2
                            }
                            end = pair0 + pairCount
                            if pair < end { even += pair[0].weight * (load(pair[0].first) + load(pair[0].second)) }
                            let sums = even + odd
                            if count &- first >= 8 {
                                UnsafeMutableRawPointer(outBase + first).storeBytes(of: sums, as: SIMD8<Float>.self)
                            } else {
                                for lane in 0..<(count &- first) { outBase[first &+ lane] = sums[lane] }
                            }
                        }
                    }
                }
            }
        }
        return output
    }

    /// The Kaiser-windowed sinc low-pass for `factor`: passband edge 7/8 and stopband edge 9/8 of
    /// the output's Nyquist frequency, `attenuationDB` down in the stopband, unity gain at 0 Hz.
    /// What lies between 8/8 and 9/8 folds back above 7/8, outside the passband (above 7 kHz
    /// at 16 kHz, where speech has little and Whisper listens least): half the taps of a
    /// filter that stops at 8/8, for the same passband.
    static func lowPass(factor: Int, attenuationDB: Double = 50) -> [Float] {
        guard factor > 1 else { return [1] }
        // Frequencies in cycles per input sample.
        let nyquist = 0.5 / Double(factor)
        let stopband = nyquist * 9 / 8
        let passband = nyquist * 7 / 8
        let cutoff = (passband + stopband) / 2
        let transition = stopband - passband
        // Kaiser's estimates of the length and shape that reach the attenuation.
        let length = Int(((attenuationDB - 7.95) / (14.36 * transition)).rounded(.up))
        let half = (length + 1) / 2
        let beta = attenuationDB > 50 ? 0.1102 * (attenuationDB - 8.7)
            : 0.5842 * pow(attenuationDB - 21, 0.4) + 0.07886 * (attenuationDB - 21)
        let taps = (-half...half).map { offset -> Double in
            let x = Double(offset)
            let sinc = offset == 0 ? 2 * cutoff : sin(2 * Double.pi * cutoff * x) / (Double.pi * x)
            let ratio = x / Double(half)
            return sinc * besselI0(beta * (1 - ratio * ratio).squareRoot()) / besselI0(beta)
        }
        let gain = taps.reduce(0, +)
        return taps.map { Float($0 / gain) }
    }

    /// The modified Bessel function of the first kind, order 0 (its power series).
    private static func besselI0(_ x: Double) -> Double {
        var sum = 1.0, term = 1.0, k = 1.0
        while term > sum * 1e-12 {
            term *= (x / (2 * k)) * (x / (2 * k))
            sum += term
            k += 1
        }
        return sum
    }
}
