import Foundation

/// The source read in blocks of several periods and handed to the device a period at a time:
/// a tenth of the reads (system calls, for a file) while every write stays one period, so a
/// pause or a jump still takes effect within a period.
final class ReadAhead: FrameProvider {
    /// Periods read at once.
    static let periods = 16
    private let source: any PlaybackSource
    private let channels: Int
    private var block: [Int16]
    private var offset = 0
    private var count = 0

    init(_ source: any PlaybackSource, device: PlaybackFormat) {
        self.source = source
        channels = max(device.channels, 1)
        block = [Int16](repeating: 0, count: max(device.periodFrames, 1) * Self.periods * channels)
    }

    var totalFrames: Int64 { source.totalFrames }
    var isLengthKnown: Bool { source.isLengthKnown }

    func seek(toFrame frame: Int64) throws {
        try source.seek(toFrame: frame)
        offset = 0
        count = 0
    }

    /// Hands up to `maxFrames` frames to `body`; returns how many (0 at the end).
    func next(maxFrames: Int, _ body: (UnsafePointer<Int16>, Int) throws -> Void) throws -> Int {
        if offset >= count {
            offset = 0
            count = try block.withUnsafeMutableBufferPointer { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return try source.read(into: base, maxFrames: buffer.count / channels)
            }
        }
        let frames = min(maxFrames, count - offset)
        guard frames > 0 else { return 0 }
        try block.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            try body(base + offset * channels, frames)
        }
        offset += frames
        return frames
    }
}
