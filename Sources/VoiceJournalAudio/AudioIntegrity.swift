import Foundation

/// Whether an audio file holds all the audio its header promises. libsndfile opens a cut-off
/// file without complaint (a WAV's length is computed from the bytes present, a FLAC's
/// comes from its header), so a truncated file would be uploaded as if whole.
///
/// Fast enough for folders of thousands: a chunked container's header is compared with the
/// file's size, and every other format is asked to decode its last half second; nothing is
/// decoded from start to end.
package enum AudioIntegrity {
    /// How much of the end must decode: compressed formats only estimate some lengths (an
    /// MP3 without a Xing header), so a file is whole when audio decodes within its last 0.25 s.
    static let tailSeconds = 0.5
    static let toleranceSeconds = 0.25

    /// Opens `url`, checks that nothing is missing from its end and returns its shape.
    /// Throws `AudioFileProblem` (`.truncated`, `.notRegularFile`, …) or `SoundFileError`.
    ///
    /// What the file is comes from its bytes, never its name. Containers libsndfile does not
    /// read (M4A/AAC, MP4, WebM, …) are decoded through FFmpeg instead, whatever they are
    /// called; but bytes of a container libsndfile reads (WAV, FLAC, AIFF, …) that it cannot
    /// open are reported as damaged rather than half-decoded by a second library.
    ///
    /// A length declared over `limit` is refused (`.tooLong`, `.implausibleLength`) before
    /// anything is decoded: checking the end of a ten-hour file costs a seek, not ten hours.
    package static func probe(_ url: URL, limit: DecodeLimit = .plausible) throws -> AudioFileInfo {
        let reader: SoundFileReader
        do {
            reader = try SoundFileReader(url: url)
        } catch let error as SoundFileError where error.kind != .notAudio {
            switch ContainerProbe.verdict(on: url) {
            case .audio(let container) where readBySndfile.contains(container):
                throw error
            case .notAudio:
                // Neither library takes these bytes for audio (text, a playlist, an image):
                // FFmpeg is not asked to open them.
                throw SoundFileError.notAudio(path: url.path, sndfile: error.reason, ffmpeg: "not an audio container")
            case .audio, .unknown:
                break
            }
            if let missing = try ContainerExtent.missingBytes(in: url), missing > 0 {
                throw AudioFileProblem(.truncated, path: url.path, reason: "truncated: the end of the file is missing")
            }
            return try AudioDecoder.probe(url, limit: limit)
        }
        if reader.info.frames != Int64.max {
            let size = (try? FileStatus.of(url.path).sizeBytes) ?? 0
            try limit.check(declaredSeconds: reader.info.durationSeconds, fileSize: size, path: url.path)
        }
        try check(reader)
        return reader.info
    }

    /// Containers libsndfile reads in full, by their usual extension: such bytes that it
    /// cannot open are damaged.
    static let readBySndfile: Set<String> = ["wav", "flac", "aiff", "caf", "w64"]

    /// Extensions of containers that only FFmpeg's libraries decode here.
    package static let decodedByFFmpeg: Set<String> = [
        "m4a", "m4b", "mp4", "aac", "webm", "mka", "mkv", "mov", "3gp", "wma", "amr",
    ]

    /// Throws `.truncated` when `reader`'s file holds less audio than its header says.
    static func check(_ reader: SoundFileReader) throws {
        let info = reader.info
        if let declared = try declaredSize(of: reader.url), declared.size.missingBytes(fileSize: declared.fileSize) > 0 {
            // libsndfile counted the frames present; the header's share of them follows.
            let present = max(declared.fileSize - declared.size.dataOffset, 0)
            let claimed = present > 0
                ? info.durationSeconds * Double(declared.size.declaredBytes) / Double(present)
                : Double(declared.size.declaredBytes) / Double(max(declared.size.bytesPerFrame, 1)) / Double(max(info.sampleRate, 1))
            throw truncated(reader.url, claimed: claimed, held: info.durationSeconds)
        }
        guard info.frames > 0, info.sampleRate > 0 else { return }
        if info.frames == Int64.max {
            // The length is unknown. A FLAC streamed to a pipe says so honestly; an Ogg file's
            // length comes from its last page, so libsndfile not finding one means it is cut off.
            guard info.format == "oga" else { return }
            throw AudioFileProblem(.truncated, path: reader.url.path, reason: "truncated: the end of the file is missing")
        }
        let tail = min(info.frames, Int64(Double(info.sampleRate) * tailSeconds))
        let needed = tail - Int64(Double(info.sampleRate) * toleranceSeconds)
        if reader.seek(toFrame: info.frames - tail), let read = try? reader.readInt16(frames: Int(tail)),
           Int64(read.count / max(info.channels, 1)) >= needed {
            return
        }
        let held = Double(lastDecodableFrame(of: reader.url, below: info.frames, sampleRate: info.sampleRate))
            / Double(info.sampleRate)
        throw truncated(reader.url, claimed: info.durationSeconds, held: held)
    }

    static func truncated(_ url: URL, claimed: Double, held: Double) -> AudioFileProblem {
        AudioFileProblem(.truncated, path: url.path, reason: String(
            format: "truncated: the header says %.1f s, the file holds %.1f s", claimed, held))
    }

    /// The audio chunk a WAV, AIFF or Wave64 header declares, with the file's size; nil for
    /// other containers.
    private static func declaredSize(of url: URL) throws -> (size: DeclaredAudioSize, fileSize: Int64)? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let header = [UInt8](try handle.read(upToCount: 65536) ?? Data())
        guard let size = DeclaredAudioSize.parse(header) else { return nil }
        return (size, Int64(try handle.seekToEnd()))
    }

    /// Where decoding stops in a cut-off file, to a twentieth of a second: found by seeking,
    /// halving the range each time, on a fresh reader per try (a FLAC decoder whose seek
    /// failed seeks nowhere again).
    private static func lastDecodableFrame(of url: URL, below upper: Int64, sampleRate: Int) -> Int64 {
        func decodes(at frame: Int64) -> Bool {
            guard let reader = try? SoundFileReader(url: url), reader.seek(toFrame: frame),
                  let samples = try? reader.readInt16(frames: 64) else { return false }
            return !samples.isEmpty
        }
        guard decodes(at: 0) else { return 0 }
        var good: Int64 = 0, bad = max(upper, 1)
        let step = Int64(max(sampleRate / 20, 1))
        while bad - good > step {
            let middle = good + (bad - good) / 2
            if decodes(at: middle) { good = middle } else { bad = middle }
        }
        return good
    }
}
