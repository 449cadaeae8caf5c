import CMappedFile
import Foundation

/// A 16-bit PCM WAV file's samples mapped into memory (one guarded `mmap`, unmapped in deinit),
/// so playback hands the device the file's own bytes with no copy in between: reading them
/// into a buffer first would cost as much CPU as the rest of playback together. A file cut
/// short while mapped reads as silence from the cut on (and says so), never SIGBUS.
/// Use from one thread.
final class MappedPCM: FrameProvider {
    private let slot: Int32
    private let samples: UnsafePointer<Int16>
    private let channels: Int
    private var next: Int64 = 0
    /// Whole frames on disk when it was mapped: a recording still being written plays what
    /// had reached the disk, whatever its header says yet.
    let totalFrames: Int64

    /// Maps `url` when it is a RIFF/WAVE file of 16-bit PCM with `channels` channels: nil for
    /// anything else (the caller decodes it instead), or when it holds no whole frame. The
    /// audio is what the header declares, or (`growing`: a recording still being written, its
    /// header a second behind; or a header declaring none) every whole frame on disk.
    init?(url: URL, channels: Int, growing: Bool = false) {
        guard channels > 0, let handle = FileHandle(forReadingAtPath: url.path) else { return nil }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 65_536), let layout = try? WAVLayout.parse(Array(header)),
              layout.blockAlign == 2 * channels,
              let size = try? handle.seekToEnd() else { return nil }
        let bytes = layout.audioBytes(fileSize: Int64(size), growing: growing)
        guard bytes > 0 else { return nil }
        var slot: Int32 = -1
        guard let start = cmapped_map(handle.fileDescriptor, Int64(layout.dataOffset), Int(bytes), &slot) else { return nil }
        // Mapping keeps the pages reachable after the descriptor is closed.
        self.slot = slot
        samples = start.assumingMemoryBound(to: Int16.self)
        self.channels = channels
        totalFrames = bytes / Int64(layout.blockAlign)
    }

    deinit { cmapped_unmap(slot) }

    /// True once the file was found cut short under the mapping (the rest played as silence).
    var shrank: Bool { cmapped_shrank(slot) != 0 }

    func next(maxFrames: Int, _ body: (UnsafePointer<Int16>, Int) throws -> Void) throws -> Int {
        guard !shrank else { return 0 }
        let frames = Int(max(min(Int64(maxFrames), totalFrames - next), 0))
        guard frames > 0 else { return 0 }
        try body(samples + Int(next) * channels, frames)
        next += Int64(frames)
        return frames
    }

    func seek(toFrame frame: Int64) throws { next = min(max(frame, 0), totalFrames) }
}
