import VoiceJournalCFFmpeg
import Foundation

/// What a file is by its own bytes, as FFmpeg's probes judge its first bytes (never its name):
/// the one way a file reaches FFmpeg's demuxers. Only the demuxers of audio containers are
/// ever used; everything else FFmpeg knows (HLS and other playlists, concat lists, image
/// sequences, subtitle files, …) is "not audio", since those formats read other files and
/// URLs they name, and what a file names must never be opened.
enum ContainerProbe {
    /// The audio containers decoded through FFmpeg, by FFmpeg's demuxer name, each with the
    /// extension such a file is known by.
    static let audioContainers: [String: String] = [
        "mov,mp4,m4a,3gp,3g2,mj2": "m4a", "matroska,webm": "webm", "ogg": "ogg", "aac": "aac", "mp3": "mp3",
        "flac": "flac", "wav": "wav", "aiff": "aiff", "caf": "caf", "w64": "w64", "asf": "wma", "amr": "amr",
    ]

    /// The same demuxers as FFmpeg's `format_whitelist` (any one name of each).
    static let demuxerNames = "mov,matroska,ogg,aac,mp3,flac,wav,aiff,caf,w64,asf,amr"

    /// The most of a file the probes read: FFmpeg's own limit when it probes (1 MiB).
    static let maxProbeBytes = 1 << 20
    /// A score above this settles the probe early, as in FFmpeg (AVPROBE_SCORE_RETRY).
    static let settledScore: Int32 = 25

    /// The demuxer of `url`'s audio container, judged by its bytes. Throws `SoundFileError` of
    /// kind `.notAudio` when the bytes are no audio container FFmpeg decodes here; what the
    /// file names or holds besides is never opened, so the answer is the same whatever it names.
    static func demuxer(of url: URL) throws -> UnsafePointer<AVInputFormat> {
        let (format, name) = try probe(url)
        guard let format, let name, audioContainers[name] != nil else {
            throw SoundFileError(operation: "decode", path: url.path,
                                 reason: name.map { "not an audio container (its bytes read as \($0))" } ?? "not a container FFmpeg knows",
                                 kind: .notAudio)
        }
        return format
    }

    /// What a file's bytes are, as far as audio goes.
    enum Verdict: Equatable {
        /// An audio container, by its usual extension ("m4a", "webm", "mp3", "wav", …).
        case audio(String)
        /// Nothing FFmpeg decodes here: no audio container (text, a playlist, an image, …).
        case notAudio
        /// FFmpeg's libraries cannot be loaded, so the bytes cannot be judged.
        case unknown
    }

    /// What `url`'s bytes are.
    static func verdict(on url: URL) -> Verdict {
        guard cffmpeg_load() else { return .unknown }
        guard let name = try? probe(url).name, let container = audioContainers[name] else { return .notAudio }
        return .audio(container)
    }

    /// FFmpeg's best guess for the bytes, with the demuxer's name: tried on 2 KiB, then twice
    /// as much each time, until a probe is sure or 1 MiB (or the whole file) has been tried.
    private static func probe(_ url: URL) throws -> (format: UnsafePointer<AVInputFormat>?, name: String?) {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw SoundFileError(operation: "open", path: url.path, reason: "cannot be read")
        }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: maxProbeBytes)) ?? Data())
        var size = min(2048, bytes.count)
        var best: UnsafePointer<AVInputFormat>?
        while size > 0 {
            var score: Int32 = 0
            best = bytes.withUnsafeBufferPointer { cffmpeg_probe_bytes($0.baseAddress, Int32(size), &score) }
            if score > settledScore || size == bytes.count { break }
            size = min(size * 2, bytes.count)
        }
        return (best, best.map { String(cString: $0.pointee.name) })
    }
}
