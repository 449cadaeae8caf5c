import Foundation

/// An audio file reduced to a row of columns, each the peak and RMS of its slice of time:
/// what a terminal waveform draws. Also gives the whole file's levels.
public struct WaveformSummary: Sendable, Equatable {
    /// One slice of time, as linear amplitudes from 0 (silence) to 1 (full scale).
    public struct Column: Sendable, Equatable {
        public var peak: Double
        public var rms: Double
    }

    public var info: AudioFileInfo
    public var columns: [Column]
    /// Peak and RMS of the whole file.
    public var levels: LevelMeter.Reading

    /// Reads the whole file (any format `AudioDecoder` decodes) in blocks, so memory stays small.
    /// Levels are measured at 16-bit resolution, as for a recording. The info's `frames` is the
    /// counted length (FFmpeg files' stated length is only an estimate). A file longer than
    /// `limit` is refused before decoding, or as soon as decoding passes it (`DecodeLimit`).
    public static func make(of url: URL, columns requested: Int, limit: DecodeLimit = .plausible) throws -> WaveformSummary {
        let decoder = try AudioDecoder(url: url, limit: limit)
        // A file that states no length at all is counted first, or every column would be the last.
        let info = decoder.info.frames == 0 && decoder.info.framesAreEstimated
            ? try AudioDecoder.probe(url, limit: limit) : decoder.info
        let count = max(requested, 1)
        var peaks = [Int32](repeating: 0, count: count)
        var squares = [Double](repeating: 0, count: count)
        var samples = [Int64](repeating: 0, count: count)
        var meter = LevelMeter(sampleRate: info.sampleRate, channels: info.channels)
        let channels = max(info.channels, 1)
        // Some containers only estimate their length; never index past the last column.
        let total = max(info.frames, 1)
        var frame: Int64 = 0
        while true {
            let block = try decoder.read(maxFrames: 8192).map(pcm16)
            if block.isEmpty { break }
            block.withUnsafeBufferPointer { buffer in
                meter.measure(buffer)
                for start in stride(from: 0, to: buffer.count, by: channels) {
                    let column = min(Int(frame * Int64(count) / total), count - 1)
                    for channel in 0..<channels where start + channel < buffer.count {
                        let value = Int32(buffer[start + channel])
                        peaks[column] = max(peaks[column], value < 0 ? -value : value)
                        squares[column] += Double(value * value)
                        samples[column] += 1
                    }
                    frame += 1
                }
            }
        }
        let columns = (0..<count).map { index in
            Column(peak: Double(peaks[index]) / LevelMeter.fullScale,
                   rms: samples[index] > 0 ? (squares[index] / Double(samples[index])).squareRoot() / LevelMeter.fullScale : 0)
        }
        var measured = decoder.info
        measured.frames = frame
        measured.framesAreEstimated = false
        return WaveformSummary(info: measured, columns: columns, levels: meter.overall)
    }

}
