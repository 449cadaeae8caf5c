import VoiceJournalCSampleRate

/// A libsamplerate failure (src_new / src_process), in its own words, with a kind callers
/// decide by. Every kind is failed work (exit 1) at the command line.
package struct ResamplerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What could not be done. New kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unsupportedRatio, setup, conversion
        }
        private let code: Code

        /// The two rates are too far apart for libsamplerate (`src_is_valid_ratio`).
        package static let unsupportedRatio = Kind(code: .unsupportedRatio)
        /// The converter could not be made (`src_new`).
        package static let setup = Kind(code: .setup)
        /// Converting a block failed (`src_process`).
        package static let conversion = Kind(code: .conversion)

        package var description: String { code.rawValue }
    }

    package let kind: Kind
    /// The libsamplerate function that failed.
    package let function: String
    /// libsamplerate's text for the code (`src_strerror`).
    package let reason: String

    package var description: String { "resampling failed (\(function)): \(reason)" }

    /// The error of `kind`, `function` having returned `code` (libsamplerate's words for it).
    package init(_ kind: Kind, function: String, code: Int32) {
        let words = (try? LibSampleRate.loaded.get())?.strerror(code).map { String(cString: $0) }
        self.init(kind, function: function, reason: words ?? "error \(code)")
    }

    /// The error of `kind` in `function`, for `reason`.
    package init(_ kind: Kind, function: String, reason: String) {
        self.kind = kind
        self.function = function
        self.reason = reason
    }
}

/// A streaming sample-rate converter over libsamplerate (one `SRC_STATE*`, freed in deinit):
/// feed it blocks of interleaved Float frames as they are decoded, and it returns the converted
/// frames available so far. Band-limited (sinc), so nothing above the new Nyquist frequency
/// folds back in. Use from one thread.
package final class Resampler {
    /// How much of the output band the sinc filter keeps, and what it costs.
    package enum Quality: Sendable {
        /// 90 % of the output band kept (to 7.2 kHz at 16 kHz), about 121 dB of stopband.
        case medium
        /// 80 % of the output band kept (to 6.4 kHz at 16 kHz), about 97 dB of stopband; several
        /// times cheaper than `medium`.
        case fastest
    }

    private let state: OpaquePointer
    private let library: LibSampleRate
    package let inputRate: Int
    package let outputRate: Int
    package let channels: Int
    private let ratio: Double
    private var finished = false

    package init(from inputRate: Int, to outputRate: Int, channels: Int = 1, quality: Quality = .medium) throws {
        ratio = Double(outputRate) / Double(inputRate)
        do {
            library = try LibSampleRate.loaded.get()
        } catch {
            throw ResamplerError(.setup, function: "src_new", reason: "libsamplerate is not usable: \(error.step)")
        }
        // libsamplerate accepts ratios from 1/256 to 256 (a rate of 0 gives 0 or infinity: refused too).
        guard library.isValidRatio(ratio) != 0 else {
            throw ResamplerError(.unsupportedRatio, function: "src_is_valid_ratio", code: 6)  // SRC_ERR_BAD_SRC_RATIO
        }
        var error: Int32 = 0
        let converter = switch quality {
        case .medium: csamplerate_medium_quality()
        case .fastest: csamplerate_fastest()
        }
        guard let state = library.new(converter, Int32(channels), &error) else {
            throw ResamplerError(.setup, function: "src_new", code: error)
        }
        self.state = state
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
    }

    deinit { _ = library.delete(state) }

    /// Converts one block of interleaved input frames; returns the output frames ready so far
    /// (the converter holds back a few dozen frames of history). With `endOfInput`, the held-back
    /// frames are flushed too and the resampler is finished.
    package func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool = false) throws -> [Float] {
        guard !finished else { return [] }
        let inputFrames = input.count / channels
        // Room for this block's output plus what the filter held back, in a few passes at most.
        let room = Int(Double(inputFrames) * ratio) + 256
        var output: [Float] = []
        output.reserveCapacity(room * channels)
        var scratch = [Float](repeating: 0, count: room * channels)
        var consumed = 0
        while true {
            let remaining = inputFrames - consumed
            var data = SRC_DATA()
            data.input_frames = remaining
            data.output_frames = room
            data.src_ratio = ratio
            data.end_of_input = endOfInput ? 1 : 0
            let status = scratch.withUnsafeMutableBufferPointer { out -> Int32 in
                data.data_out = out.baseAddress
                // An empty final block still needs a valid pointer (libsamplerate checks it).
                data.data_in = input.baseAddress.map { UnsafePointer($0 + consumed * channels) } ?? UnsafePointer(out.baseAddress)
                return library.process(state, &data)
            }
            guard status == 0 else { throw ResamplerError(.conversion, function: "src_process", code: status) }
            consumed += data.input_frames_used
            let generated = data.output_frames_gen
            output.append(contentsOf: scratch[0..<(generated * channels)])
            // Done when the block is used up and (at the end) the filter has nothing left.
            if consumed >= inputFrames, endOfInput ? generated == 0 : generated < room { break }
        }
        if endOfInput { finished = true }
        return output
    }

    /// `process` for a block held in an array.
    package func process(_ input: [Float], endOfInput: Bool = false) throws -> [Float] {
        try input.withUnsafeBufferPointer { try process($0, endOfInput: endOfInput) }
    }
}

/// Mono speech brought to the rate a speech model hears (16 kHz) as cheaply as the model allows.
///
/// A model for 16 kHz audio hears nothing above 8 kHz and needs no more than a flat band to
/// 7 kHz with the rest kept from folding back, so a whole factor down (48, 32 or 96 kHz to
/// 16 kHz) goes through a `Decimator`: a fraction of a sinc resampler's cost, no delay, and
/// exactly `⌈n / factor⌉` samples out. Any other ratio (44.1 kHz) goes through libsamplerate at
/// the quality asked for. Use from one thread.
package final class SpeechResampler {
    private enum Converter {
        case decimator(Decimator)
        case sinc(Resampler)
    }

    private let converter: Converter
    package let inputRate: Int
    package let outputRate: Int

    /// A converter from `inputRate` to `outputRate`, both mono; `otherRatios` is the
    /// libsamplerate quality for a ratio that is not a whole factor down. Throws
    /// `ResamplerError` for a ratio libsamplerate cannot do.
    package init(from inputRate: Int, to outputRate: Int, otherRatios quality: Resampler.Quality = .fastest) throws {
        self.inputRate = inputRate
        self.outputRate = outputRate
        if inputRate > outputRate, outputRate > 0, inputRate % outputRate == 0 {
            converter = .decimator(Decimator(factor: inputRate / outputRate))
        } else {
            converter = .sinc(try Resampler(from: inputRate, to: outputRate, channels: 1, quality: quality))
        }
    }

    /// True when the converter is a `Decimator` (a whole factor down).
    package var decimates: Bool {
        if case .decimator = converter { return true }
        return false
    }

    /// Converts one block of mono samples; returns the output samples ready so far. With
    /// `endOfInput`, what is held back is flushed and the converter is finished.
    package func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool = false) throws -> [Float] {
        switch converter {
        case .decimator(let decimator): decimator.process(input, endOfInput: endOfInput)
        case .sinc(let resampler): try resampler.process(input, endOfInput: endOfInput)
        }
    }

    /// `process` for a block held in an array.
    package func process(_ input: [Float], endOfInput: Bool = false) throws -> [Float] {
        try input.withUnsafeBufferPointer { try process($0, endOfInput: endOfInput) }
    }
}

/// Mixes interleaved frames down to one channel: the mean of the channels, so a signal on both
/// stereo channels keeps its level.
package func downmixToMono(_ interleaved: UnsafeBufferPointer<Float>, channels: Int) -> [Float] {
    guard channels > 1 else { return Array(interleaved) }
    let frames = interleaved.count / channels
    let scale = 1 / Float(channels)
    var mono = [Float](repeating: 0, count: frames)
    for frame in 0..<frames {
        var sum: Float = 0
        for channel in 0..<channels { sum += interleaved[frame * channels + channel] }
        mono[frame] = sum * scale
    }
    return mono
}

/// Mixes interleaved 16-bit frames down to one channel of Float samples (full scale ±1.0): the
/// mean of the channels, as converting to Float and `downmixToMono` gives (the very same
/// samples for one or two channels), in one pass and one array: what cutting live pieces does
/// to every captured block.
package func downmixToMono(_ interleaved: UnsafeBufferPointer<Int16>, channels: Int) -> [Float] {
    let channels = max(channels, 1)
    let frames = interleaved.count / channels
    guard let source = interleaved.baseAddress, frames > 0 else { return [] }
    // Sums of 16-bit samples are exact in Float, and so is a power-of-two scale.
    let scale = 1 / (32768 * Float(channels))
    return [Float](unsafeUninitializedCapacity: frames) { mono, initialized in
        switch channels {
        case 1:
            for frame in 0..<frames { mono[frame] = Float(source[frame]) * scale }
        case 2:
            for frame in 0..<frames { mono[frame] = Float(Int32(source[2 * frame]) + Int32(source[2 * frame + 1])) * scale }
        default:
            for frame in 0..<frames {
                var sum: Int32 = 0
                for channel in 0..<channels { sum += Int32(source[frame * channels + channel]) }
                mono[frame] = Float(sum) * scale
            }
        }
        initialized = frames
    }
}
