import Foundation

/// Peak and RMS levels of 16-bit audio in dBFS, block by block (about 50 ms each), with a
/// peak hold that decays, and the levels of the whole take so far. Pure: no clock, no I/O —
/// time is counted in frames.
public struct LevelMeter: Sendable {
    /// The level of one block (or of a whole take).
    public struct Reading: Sendable, Equatable {
        public var peakDBFS: Double
        public var rmsDBFS: Double
        /// Some sample sat at full scale (32767 or -32768): the input is probably distorted.
        public var clipped: Bool

        public init(peakDBFS: Double, rmsDBFS: Double, clipped: Bool) {
            self.peakDBFS = peakDBFS
            self.rmsDBFS = rmsDBFS
            self.clipped = clipped
        }

        /// Digital silence.
        public static let silence = Reading(peakDBFS: LevelMeter.floorDBFS, rmsDBFS: LevelMeter.floorDBFS, clipped: false)
    }

    /// The level reported for digital silence instead of -inf (16-bit audio spans about 96 dB).
    public static let floorDBFS = -96.0
    /// Full scale of a 16-bit sample: dBFS is measured against it.
    static let fullScale = 32768.0

    public let sampleRate: Int
    public let channels: Int
    /// How long the peak hold stays put before it starts falling.
    public var holdSeconds: Double
    /// How fast the peak hold falls once it lets go.
    public var decayDBPerSecond: Double

    /// The held peak: the highest recent block peak, falling after `holdSeconds`.
    public private(set) var holdDBFS = LevelMeter.floorDBFS
    private var holdAgeSeconds = 0.0

    private var takePeak: Int32 = 0
    private var takeSquares = 0.0
    private var takeSamples: Int64 = 0
    private var takeClipped = false
    private var section = (peak: Int32(0), squares: 0.0, samples: Int64(0), clipped: false)
    /// Frames measured so far.
    public private(set) var frames: Int64 = 0

    public init(sampleRate: Int, channels: Int, holdSeconds: Double = 1.5, decayDBPerSecond: Double = 20) {
        self.sampleRate = sampleRate
        self.channels = max(channels, 1)
        self.holdSeconds = holdSeconds
        self.decayDBPerSecond = decayDBPerSecond
    }

    /// Peak and RMS over everything measured so far.
    public var overall: Reading {
        guard takeSamples > 0 else { return .silence }
        return Reading(peakDBFS: Self.dbfs(amplitude: Double(takePeak)),
                       rmsDBFS: Self.dbfs(amplitude: (takeSquares / Double(takeSamples)).squareRoot()),
                       clipped: takeClipped)
    }

    /// Peak and RMS since the previous call (e.g. over one second, for plain meter lines), then
    /// starts the next section.
    public mutating func takeSection() -> Reading {
        defer { section = (0, 0, 0, false) }
        guard section.samples > 0 else { return .silence }
        return Reading(peakDBFS: Self.dbfs(amplitude: Double(section.peak)),
                       rmsDBFS: Self.dbfs(amplitude: (section.squares / Double(section.samples)).squareRoot()),
                       clipped: section.clipped)
    }

    /// Measures one block of interleaved samples (all channels together) and moves the peak hold.
    @discardableResult
    public mutating func measure(_ samples: UnsafeBufferPointer<Int16>) -> Reading {
        let level = Self.level(of: samples)
        let blockFrames = samples.count / channels
        frames += Int64(blockFrames)
        takePeak = max(takePeak, level.peak)
        takeSquares += level.squares
        takeSamples += Int64(samples.count)
        takeClipped = takeClipped || level.clipped
        section.peak = max(section.peak, level.peak)
        section.squares += level.squares
        section.samples += Int64(samples.count)
        section.clipped = section.clipped || level.clipped

        let reading = Reading(
            peakDBFS: Self.dbfs(amplitude: Double(level.peak)),
            rmsDBFS: samples.isEmpty ? Self.floorDBFS : Self.dbfs(amplitude: (level.squares / Double(samples.count)).squareRoot()),
            clipped: level.clipped)
        moveHold(to: reading.peakDBFS, seconds: sampleRate > 0 ? Double(blockFrames) / Double(sampleRate) : 0)
        return reading
    }

    /// Measures one block held in an array.
    @discardableResult
    public mutating func measure(_ samples: [Int16]) -> Reading {
        samples.withUnsafeBufferPointer { measure($0) }
    }

    /// dBFS of an amplitude in 16-bit units (32768 = 0 dBFS), never below the floor.
    public static func dbfs(amplitude: Double) -> Double {
        guard amplitude > 0 else { return floorDBFS }
        return max(20 * log10(amplitude / fullScale), floorDBFS)
    }

    private mutating func moveHold(to peak: Double, seconds: Double) {
        holdAgeSeconds += seconds
        if peak >= holdDBFS {
            holdDBFS = peak
            holdAgeSeconds = 0
        } else if holdAgeSeconds > holdSeconds {
            let falling = min(seconds, holdAgeSeconds - holdSeconds)
            holdDBFS = max(peak, holdDBFS - decayDBPerSecond * falling)
        }
    }

    /// One pass over the samples: largest magnitude, sum of squares, whether any sample sat at
    /// full scale. Eight samples at a time: capture meters every sample it records, and this
    /// loop is most of the CPU a recording costs. Squares add up in Float lanes, whose rounding
    /// (about 1e-4 relative over a block) is far below the 0.1 dB the meter shows.
    static func level(of samples: UnsafeBufferPointer<Int16>) -> (peak: Int32, squares: Double, clipped: Bool) {
        guard let base = samples.baseAddress else { return (0, 0, false) }
        let count = samples.count
        let raw = UnsafeRawPointer(base)
        var high = SIMD8<Int16>(repeating: 0), low = SIMD8<Int16>(repeating: 0)
        var sumA = SIMD8<Float>(repeating: 0), sumB = SIMD8<Float>(repeating: 0)
        var index = 0
        while index + 16 <= count {
            let first = raw.loadUnaligned(fromByteOffset: index * 2, as: SIMD8<Int16>.self)
            let second = raw.loadUnaligned(fromByteOffset: index * 2 + 16, as: SIMD8<Int16>.self)
            high = pointwiseMax(high, pointwiseMax(first, second))
            low = pointwiseMin(low, pointwiseMin(first, second))
            let a = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: first))
            let b = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: second))
            sumA += a * a
            sumB += b * b
            index += 16
        }
        var largest = Int32(high.max()), smallest = Int32(low.min())
        var squares = Double((sumA + sumB).sum())
        while index < count {
            let value = Int32(base[index])
            largest = max(largest, value)
            smallest = min(smallest, value)
            squares += Double(value * value)
            index += 1
        }
        return (max(largest, -smallest), squares, largest >= 32767 || smallest <= -32767)
    }
}
