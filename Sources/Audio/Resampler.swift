import CSampleRate

/// A libsamplerate failure (src_new / src_process), in its own words, with a kind callers
/// decide by. Every kind is failed work (exit 1) at the command line.
public struct ResamplerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What could not be done. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unsupportedRatio, setup, conversion
        }
        private let code: Code

        /// The two rates are too far apart for libsamplerate (`src_is_valid_ratio`).
        public static let unsupportedRatio = Kind(code: .unsupportedRatio)
        /// The converter could not be made (`src_new`).
        public static let setup = Kind(code: .setup)
        /// Converting a block failed (`src_process`).
        public static let conversion = Kind(code: .conversion)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The libsamplerate function that failed.
    public let function: String
    /// libsamplerate's text for the code (`src_strerror`).
    public let reason: String

    public var description: String { "resampling failed (\(function)): \(reason)" }

    /// The error of `kind`, `function` having returned `code`.
    public init(_ kind: Kind, function: String, code: Int32) {
        self.kind = kind
        self.function = function
        reason = src_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// A streaming sample-rate converter over libsamplerate (one `SRC_STATE*`, freed in deinit):
/// feed it blocks of interleaved Float frames as they are decoded, and it returns the converted
/// frames available so far. Band-limited (sinc, medium quality: 97 % of the output band kept,
/// far more than 60 dB of stopband), so nothing above the new Nyquist frequency folds back in.
/// Use from one thread.
public final class Resampler {
    private let state: OpaquePointer
    public let inputRate: Int
    public let outputRate: Int
    public let channels: Int
    private let ratio: Double
    private var finished = false

    public init(from inputRate: Int, to outputRate: Int, channels: Int = 1) throws {
        ratio = Double(outputRate) / Double(inputRate)
        // libsamplerate accepts ratios from 1/256 to 256 (a rate of 0 gives 0 or infinity: refused too).
        guard src_is_valid_ratio(ratio) != 0 else {
            throw ResamplerError(.unsupportedRatio, function: "src_is_valid_ratio", code: 6)  // SRC_ERR_BAD_SRC_RATIO
        }
        var error: Int32 = 0
        guard let state = src_new(csamplerate_medium_quality(), Int32(channels), &error) else {
            throw ResamplerError(.setup, function: "src_new", code: error)
        }
        self.state = state
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
    }

    deinit { src_delete(state) }

    /// Converts one block of interleaved input frames; returns the output frames ready so far
    /// (the converter holds back a few dozen frames of history). With `endOfInput`, the held-back
    /// frames are flushed too and the resampler is finished.
    public func process(_ input: UnsafeBufferPointer<Float>, endOfInput: Bool = false) throws -> [Float] {
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
                return src_process(state, &data)
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
    public func process(_ input: [Float], endOfInput: Bool = false) throws -> [Float] {
        try input.withUnsafeBufferPointer { try process($0, endOfInput: endOfInput) }
    }
}

/// Mixes interleaved frames down to one channel: the mean of the channels, so a signal on both
/// stereo channels keeps its level.
public func downmixToMono(_ interleaved: UnsafeBufferPointer<Float>, channels: Int) -> [Float] {
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
