import Foundation

/// What a `PlaybackSession` writes from: frames lent a block at a time (from a file's own
/// mapped bytes, or from a `PlaybackSource` read ahead), in the device's rate and channels.
/// Used only by the session's playback thread.
protocol FrameProvider: AnyObject {
    /// Frames in the whole of it, in device frames; an estimate while `isLengthKnown` is false.
    var totalFrames: Int64 { get }
    var isLengthKnown: Bool { get }
    /// Lends up to `maxFrames` frames to `body`; returns how many (0 at the end).
    func next(maxFrames: Int, _ body: (UnsafePointer<Int16>, Int) throws -> Void) throws -> Int
    /// Moves so the next frames lent start at `frame`.
    func seek(toFrame frame: Int64) throws
    /// Whether the file was cut shorter while it was read (its mapped pages went missing).
    var wasCutShort: Bool { get }
}

extension FrameProvider {
    var wasCutShort: Bool { false }
}

extension MappedPCM {
    var isLengthKnown: Bool { true }
    var wasCutShort: Bool { shrank }
}

/// Where a `PlaybackSession` gets its frames when they must be read (decoded, converted): already in the device's rate and channels,
/// counted in device frames. Used only by the session's playback thread.
protocol PlaybackSource: AnyObject {
    /// Frames in the whole of it, in device frames; an estimate while `isLengthKnown` is false.
    var totalFrames: Int64 { get }
    /// False while the length is the container's estimate (or unknown: 0).
    var isLengthKnown: Bool { get }
    /// Reads up to `maxFrames` frames into `buffer` (room for `maxFrames × channels` samples);
    /// fewer only at the end, 0 once it is reached.
    func read(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) throws -> Int
    /// Moves so the next read starts at `frame`.
    func seek(toFrame frame: Int64) throws
}

/// Samples held in memory.
final class SampleArraySource: PlaybackSource {
    private let samples: [Int16]
    private let channels: Int
    private var next: Int64 = 0
    let totalFrames: Int64
    var isLengthKnown: Bool { true }

    init(_ samples: [Int16], channels: Int) {
        self.samples = samples
        self.channels = max(channels, 1)
        totalFrames = Int64(samples.count / self.channels)
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) throws -> Int {
        let frames = Int(max(min(Int64(maxFrames), totalFrames - next), 0))
        guard frames > 0 else { return 0 }
        samples.withUnsafeBufferPointer { all in
            guard let base = all.baseAddress else { return }
            buffer.update(from: base + Int(next) * channels, count: frames * channels)
        }
        next += Int64(frames)
        return frames
    }

    func seek(toFrame frame: Int64) throws { next = min(max(frame, 0), totalFrames) }
}

/// An audio file decoded as it plays, converted to the device's shape: its own 16-bit samples
/// copied straight through when the device took the file's rate and channels, otherwise
/// decoded to Float, mixed to the device's channels, resampled with libsamplerate when the
/// rates differ, and rounded to 16 bits. Memory does not grow with the file's length.
final class FilePlaybackSource: PlaybackSource {
    private let decoder: AudioDecoder
    private let fileRate: Int
    private let fileChannels: Int
    private let deviceRate: Int
    private let deviceChannels: Int
    private var resampler: Resampler?
    /// Converted samples not yet handed out, from `pendingOffset` on.
    private var pending: [Int16] = []
    private var pendingOffset = 0
    private var decodedToEnd = false
    private var flushed = false
    /// Converted frames still to throw away: the run-in decoded before a jump's place.
    private var runIn = 0
    /// Decoded Float frames, one block at a time.
    private var block: [Float]
    private static let blockFrames = 4096

    /// True when the file's own samples go to the device unconverted.
    let isDirect: Bool
    /// True when libsamplerate converts the rate.
    var isResampled: Bool { fileRate != deviceRate }

    init(decoder: AudioDecoder, device: PlaybackFormat) throws {
        self.decoder = decoder
        fileRate = decoder.info.sampleRate
        fileChannels = max(decoder.info.channels, 1)
        deviceRate = device.sampleRate
        deviceChannels = max(device.channels, 1)
        isDirect = fileRate == deviceRate && fileChannels == deviceChannels && decoder.readsInt16Directly
        block = [Float](repeating: 0, count: Self.blockFrames * fileChannels)
        resampler = try makeResampler()
    }

    private func makeResampler() throws -> Resampler? {
        guard fileRate != deviceRate else { return nil }
        return try Resampler(from: fileRate, to: deviceRate, channels: deviceChannels, quality: .medium)
    }

    var totalFrames: Int64 { deviceFrames(decoder.info.frames) }
    var isLengthKnown: Bool { !decoder.info.framesAreEstimated && decoder.info.frames != Int64.max }

    private func deviceFrames(_ fileFrames: Int64) -> Int64 {
        guard fileFrames != Int64.max else { return Int64.max }
        return fileRate == deviceRate ? fileFrames : Int64((Double(fileFrames) * Double(deviceRate) / Double(fileRate)).rounded())
    }

    func read(into buffer: UnsafeMutablePointer<Int16>, maxFrames: Int) throws -> Int {
        if isDirect, let read = try decoder.readInt16(into: buffer, maxFrames: maxFrames) { return read }
        var done = 0
        while done < maxFrames {
            if pendingOffset >= pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingOffset = 0
                guard try refill() else { break }
                continue
            }
            if runIn > 0 {
                let dropped = min(runIn, (pending.count - pendingOffset) / deviceChannels)
                pendingOffset += dropped * deviceChannels
                runIn -= dropped
                continue
            }
            let frames = min(maxFrames - done, (pending.count - pendingOffset) / deviceChannels)
            pending.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress else { return }
                (buffer + done * deviceChannels).update(from: base + pendingOffset, count: frames * deviceChannels)
            }
            pendingOffset += frames * deviceChannels
            done += frames
        }
        return done
    }

    /// Converts the next decoded block into `pending`; false once everything was handed out.
    private func refill() throws -> Bool {
        if flushed { return false }
        var frames = 0
        if !decodedToEnd {
            frames = try block.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return try decoder.read(into: base, maxFrames: Self.blockFrames)
            }
            if frames == 0 { decodedToEnd = true }
        }
        let mixed = block.withUnsafeBufferPointer { mix(UnsafeBufferPointer(rebasing: $0[0..<(frames * fileChannels)])) }
        var out = mixed
        if let resampler {
            out = try resampler.process(mixed, endOfInput: decodedToEnd)
            if decodedToEnd { flushed = true }
        } else if decodedToEnd {
            flushed = true
        }
        pending = out.map(pcm16)
        return !pending.isEmpty || !flushed
    }

    /// The block in the device's channels: the same channels, mono as their mean, mono copied
    /// to every channel, or (more channels than the device has) the first ones.
    private func mix(_ input: UnsafeBufferPointer<Float>) -> [Float] {
        if fileChannels == deviceChannels { return Array(input) }
        if deviceChannels == 1 { return downmixToMono(input, channels: fileChannels) }
        let frames = input.count / fileChannels
        var out = [Float](repeating: 0, count: frames * deviceChannels)
        for frame in 0..<frames {
            for channel in 0..<deviceChannels {
                // Mono goes to every channel; otherwise channel for channel, and a device channel
                // the file does not have stays silent.
                let from = fileChannels == 1 ? 0 : channel
                if from < fileChannels { out[frame * deviceChannels + channel] = input[frame * fileChannels + from] }
            }
        }
        return out
    }

    func seek(toFrame frame: Int64) throws {
        let fileFrame = fileRate == deviceRate ? frame : Int64((Double(frame) * Double(fileRate) / Double(deviceRate)).rounded())
        // A resampler started cold sees silence before the jump's place and fades in; started
        // about 20 ms earlier, its output from the place on is what an unbroken run gives. The
        // run-in is a whole number of both rates' common steps, so exactly that many converted
        // frames are thrown away.
        var runInFileFrames: Int64 = 0
        if fileRate != deviceRate {
            let common = gcd(fileRate, deviceRate)
            let step = Int64(fileRate / common)
            runInFileFrames = min(fileFrame, Int64(fileRate / 50) + step) / step * step
            runIn = Int(runInFileFrames / step) * (deviceRate / common)
        } else {
            runIn = 0
        }
        try decoder.seek(toFrame: fileFrame - runInFileFrames)
        pending.removeAll(keepingCapacity: true)
        pendingOffset = 0
        decodedToEnd = false
        flushed = false
        resampler = try makeResampler()
    }

    private func gcd(_ first: Int, _ second: Int) -> Int {
        var (a, b) = (first, second)
        while b != 0 { (a, b) = (b, a % b) }
        return max(a, 1)
    }
}
