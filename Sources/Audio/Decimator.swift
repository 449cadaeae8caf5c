import Foundation

/// Lowers the sample rate of mono audio by a whole factor (48 kHz → 16 kHz is 3, 32 kHz → 16 kHz
/// is 2): a low-pass FIR filter evaluated only at the kept samples, so each output sample costs
/// one dot product and the samples thrown away cost nothing.
///
/// The filter is a Kaiser-windowed sinc: flat (within 0.01 dB) to 7/8 of the new Nyquist
/// frequency (7 kHz at 16 kHz) and at least 60 dB down from the new Nyquist frequency on
/// (8 kHz), so nothing that folds back lands in the band a speech model hears. It is centred on
/// each kept sample: output sample `k` stands where input sample `k × factor` stood (no delay),
/// and `n` input samples give exactly `⌈n / factor⌉` output samples, however they are split into
/// blocks. Both ends are taken as silence beyond the audio. Use from one thread.
public final class Decimator {
    /// Input samples per output sample.
    public let factor: Int
    /// The filter, one side longer than the other only by the zeros that round it up to whole
    /// vectors: tap `j` weighs input sample `k × factor - halfLength + j` for output sample `k`.
    private let taps: [SIMD8<Float>]
    private let halfLength: Int
    /// Input samples from absolute index `bufferStart` on (negative indices are the silence
    /// before the audio).
    private var buffer: [Float]
    private var bufferStart: Int64
    private var received: Int64 = 0
    private var produced: Int64 = 0
    private var finished = false

    /// A decimator by `factor` (1 passes the audio through untouched; less than 1 counts as 1).
    public init(factor: Int) {
        self.factor = max(factor, 1)
        let filter = Self.lowPass(factor: self.factor)
        halfLength = filter.count / 2
        let vectors = (filter.count + 7) / 8
        let padded = filter + [Float](repeating: 0, count: vectors * 8 - filter.count)
        taps = (0..<vectors).map { SIMD8<Float>(padded[($0 * 8)..<($0 * 8 + 8)]) }
        buffer = [Float](repeating: 0, count: halfLength)
        bufferStart = -Int64(halfLength)
    }

    /// The number of filter taps (odd; 1 for a factor of 1).
    public var filterLength: Int { 2 * halfLength + 1 }

    /// Takes one block of mono samples and returns the output samples it completes (the last
    /// `filterLength / 2` input samples wait for what follows them). With `endOfInput`, the
    /// rest is flushed against silence and the decimator is finished.
    public func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool = false) -> [Float] {
        guard !finished else { return [] }
        if factor == 1 {
            finished = endOfInput
            return Array(input)
        }
        buffer.append(contentsOf: input)
        received += Int64(input.count)
        let span = taps.count * 8
        let step = Int64(factor)
        // The last output that may be made: all of them at the end, else those whose whole
        // window (vector padding included) has arrived.
        let limit: Int64
        if endOfInput {
            limit = (received + step - 1) / step
            let needed = (limit - 1) * step - Int64(halfLength) + Int64(span)
            let missing = needed - (bufferStart + Int64(buffer.count))
            if missing > 0 { buffer.append(contentsOf: repeatElement(0, count: Int(missing))) }
            finished = true
        } else {
            // Output k reads inputs k·factor − halfLength ..< k·factor − halfLength + span (the
            // vector padding reads samples it weighs by zero, but they must be there): it is
            // ready once input k·factor − halfLength + span − 1 has arrived.
            let last = received + Int64(halfLength) - Int64(span)
            limit = last < 0 ? produced : max(last / step + 1, produced)
        }
        var output = [Float](repeating: 0, count: Int(limit - produced))
        buffer.withUnsafeBufferPointer { samples in
            taps.withUnsafeBufferPointer { taps in
                output.withUnsafeMutableBufferPointer { out in
                    guard let base = samples.baseAddress, let tapBase = taps.baseAddress else { return }
                    for index in 0..<out.count {
                        let first = (produced + Int64(index)) * step - Int64(halfLength) - bufferStart
                        out[index] = Self.dot(UnsafeRawPointer(base + Int(first)), tapBase, vectors: taps.count)
                    }
                }
            }
        }
        produced = limit
        // Keep only what the next output's window starts at.
        let keepFrom = produced * step - Int64(halfLength)
        let drop = Int(min(max(keepFrom - bufferStart, 0), Int64(buffer.count)))
        if drop > 0 {
            buffer.removeFirst(drop)
            bufferStart += Int64(drop)
        }
        return output
    }

    /// `process` for a block held in an array.
    public func process(_ input: [Float], endOfInput: Bool = false) -> [Float] {
        input.withUnsafeBufferPointer { process($0, endOfInput: endOfInput) }
    }

    /// Σ samples × taps over `vectors` × 8 samples from `samples` (any alignment).
    @inline(__always)
    private static func dot(_ samples: UnsafeRawPointer, _ taps: UnsafePointer<SIMD8<Float>>, vectors: Int) -> Float {
        // Two sums, so that one addition need not wait for the other.
        var even = SIMD8<Float>(), odd = SIMD8<Float>()
        var vector = 0
        let stride = MemoryLayout<SIMD8<Float>>.size
        while vector + 1 < vectors {
            even += samples.loadUnaligned(fromByteOffset: vector * stride, as: SIMD8<Float>.self) * taps[vector]
            odd += samples.loadUnaligned(fromByteOffset: (vector + 1) * stride, as: SIMD8<Float>.self) * taps[vector + 1]
            vector += 2
        }
        if vector < vectors {
            even += samples.loadUnaligned(fromByteOffset: vector * stride, as: SIMD8<Float>.self) * taps[vector]
        }
        return (even + odd).sum()
    }

    /// The Kaiser-windowed sinc low-pass for `factor`: passband edge 7/8 and stopband edge 8/8 of
    /// the output's Nyquist frequency, `attenuationDB` down in the stopband, unity gain at 0 Hz.
    static func lowPass(factor: Int, attenuationDB: Double = 60) -> [Float] {
        guard factor > 1 else { return [1] }
        // Frequencies in cycles per input sample.
        let stopband = 0.5 / Double(factor)
        let passband = stopband * 7 / 8
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
