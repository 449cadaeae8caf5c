import VoiceJournalCMappedFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif

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
    /// The file's shape as its header gives it (format "wav", `frames` = `totalFrames`).
    let info: AudioFileInfo
    /// The file's size when it was mapped.
    let fileSize: Int64

    /// Maps `url` when it is a regular RIFF/WAVE file of 16-bit integer PCM, one or two
    /// channels: nil for anything else (the caller decodes it instead, and a decoder's error is
    /// the one to show), or when it holds no whole frame. The audio is what the header
    /// declares, or (`growing`: a recording still being written, its header a second behind;
    /// or a header declaring none) every whole frame on disk. Opened without blocking and
    /// checked on its descriptor, so a pipe or a device put in the file's place is never read.
    init?(wav url: URL, growing: Bool = false) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              let layout = WAVLayout.read(descriptor), layout.isPCM16,
              let format = layout.format, (1...2).contains(format.channels), format.sampleRate > 0 else { return nil }
        let bytes = layout.audioBytes(fileSize: Int64(status.st_size), growing: growing)
        guard bytes > 0 else { return nil }
        var slot: Int32 = -1
        guard let start = cmapped_map(descriptor, Int64(layout.dataOffset), Int(bytes), &slot) else { return nil }
        // Mapping keeps the pages reachable after the descriptor is closed.
        self.slot = slot
        samples = start.assumingMemoryBound(to: Int16.self)
        channels = format.channels
        totalFrames = bytes / Int64(layout.blockAlign)
        fileSize = Int64(status.st_size)
        info = AudioFileInfo(frames: totalFrames, sampleRate: format.sampleRate, channels: format.channels, format: "wav")
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
