import Foundation

/// Any decodable audio file as a stream of mono Float blocks at one sample rate (16 kHz by
/// default): what the long-audio splitter and the upload transcoder read. Decodes, mixes down
/// and resamples (`SpeechResampler`) block by block, so memory does not grow with the file's length.
/// Use from one thread.
package final class MonoPCMStream {
    private let decoder: AudioDecoder
    private let resampler: SpeechResampler?
    /// Rate of the blocks handed out.
    package let sampleRate: Int
    /// Source frames decoded per block (the output block is this times the rate ratio).
    package let blockFrames: Int
    /// Output frames handed out so far.
    package private(set) var framesRead: Int64 = 0
    private var finished = false

    /// Opens `url` (see `AudioDecoder` for the formats and errors). A nil `sampleRate` keeps
    /// the file's own rate (no resampling: the cheapest way to measure a file's levels).
    package init(url: URL, sampleRate: Int? = 16000, blockFrames: Int = 8192) throws {
        decoder = try AudioDecoder(url: url)
        let sampleRate = sampleRate ?? decoder.info.sampleRate
        self.sampleRate = sampleRate
        self.blockFrames = max(blockFrames, 1)
        let sourceRate = decoder.info.sampleRate
        // A whole factor down is decimated (as live pieces are); other rates keep the careful sinc.
        resampler = sourceRate == sampleRate ? nil : try SpeechResampler(from: sourceRate, to: sampleRate, otherRatios: .medium)
    }

    /// The file as decoded: its own rate, channels, format and (maybe estimated) length.
    package var source: AudioFileInfo { decoder.info }

    /// The library decoding the file.
    package var backend: AudioDecoder.Backend { decoder.backend }

    /// The stream's length in output frames: exact once the end is reached, estimated before
    /// (from the source's length, exact too for libsndfile files save the resampler's rounding).
    package var estimatedFrames: Int64 {
        finished ? framesRead : Int64((Double(decoder.info.frames) * Double(sampleRate) / Double(max(decoder.info.sampleRate, 1))).rounded())
    }

    /// The next block of mono samples at `sampleRate` (full scale ±1.0); nil at the end. A block
    /// may be empty-handed only at the very end; its length varies slightly with resampling.
    package func next() throws -> [Float]? {
        while !finished {
            let block = try decoder.read(maxFrames: blockFrames)
            let atEnd = block.isEmpty
            let mono = block.withUnsafeBufferPointer { downmixToMono($0, channels: decoder.info.channels) }
            let output = try resampler.map { try $0.process(mono, endOfInput: atEnd) } ?? mono
            if atEnd { finished = true }
            if !output.isEmpty {
                framesRead += Int64(output.count)
                return output
            }
        }
        return nil
    }
}
