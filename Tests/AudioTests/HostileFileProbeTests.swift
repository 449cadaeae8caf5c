import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

/// `AudioIntegrity.probe` and `AudioDecoder` judge a file by its bytes: the containers browsers
/// send are checked for a cut-off end as strictly as WAV, misnamed audio is audio, playlists
/// are not, and declared lengths are checked before decoding.
@Suite(.onTestThreads) struct HostileFileProbeTests {
    /// Speech (espeak-ng) encoded by ffmpeg with `arguments` (codec and container) into `name`.
    private func speech(_ folder: TemporaryFolder, _ name: String, _ arguments: [String]) throws -> URL {
        let wav = folder.path("speech-\(UUID().uuidString).wav"), out = folder.path(name)
        try CaptureFixtures.speak("I grew up in a small house by the sea, near the harbour.", to: wav, wordsPerMinute: nil)
        try runTool("ffmpeg", ["-loglevel", "error", "-y", "-i", wav.path] + arguments + [out.path])
        return out
    }

    private func cut(_ url: URL, keeping fraction: Double, in folder: TemporaryFolder) throws -> URL {
        let bytes = try Data(contentsOf: url)
        let out = folder.path("cut-" + url.lastPathComponent)
        try bytes.prefix(Int(Double(bytes.count) * fraction)).write(to: out)
        return out
    }

    /// WebM as Chromium streams it (sizes unknown: written to a pipe), WebM and M4A written
    /// whole, fragmented MP4 as Safari records: each whole is audio, each cut is truncated.
    @Test(arguments: [
        ("streamed.webm", ["-ar", "48000", "-c:a", "libopus", "-f", "webm", "-live", "1"]),
        ("whole.webm", ["-ar", "48000", "-c:a", "libopus"]),
        ("whole.m4a", ["-c:a", "aac"]),
        ("fragmented.mp4", ["-c:a", "aac", "-movflags", "+frag_keyframe+empty_moov+default_base_moof"]),
    ])
    func aCutBrowserContainerIsTruncatedAndAWholeOneIsNot(name: String, arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let whole = try speech(folder, name, arguments)
        #expect(try AudioIntegrity.probe(whole).durationSeconds > 2)
        for fraction in [0.3, 0.6, 0.95] {
            let cut = try cut(whole, keeping: fraction, in: folder)
            #expect(throws: AudioFileProblem.self, "\(name) cut to \(fraction)") { try AudioIntegrity.probe(cut) }
            do {
                _ = try AudioIntegrity.probe(cut)
            } catch let problem as AudioFileProblem {
                #expect(problem.kind == .truncated || name.hasSuffix(".m4a"), "\(problem)")
            } catch {
                // An MP4 cut before its index cannot even be opened: not audio, never half-kept.
                #expect(name.hasSuffix(".m4a"), "\(error)")
            }
        }
    }

    /// AAC named .wav, WebM named .ogg, an M4A voice memo without an extension: audio by their bytes.
    @Test(arguments: [
        ("aac-in-mp4.wav", ["-c:a", "aac", "-f", "mp4"], "m4a"),
        ("adts.wav", ["-c:a", "aac", "-f", "adts"], "aac"),
        ("opus.ogg", ["-ar", "48000", "-c:a", "libopus", "-f", "webm"], "webm"),
        ("Voice Memo", ["-c:a", "aac", "-f", "ipod"], "m4a"),
    ])
    func misnamedAudioIsAudioByItsBytes(name: String, arguments: [String], format: String) throws {
        let folder = try TemporaryFolder()
        let file = try speech(folder, name, arguments)
        let info = try AudioIntegrity.probe(file)
        #expect(info.durationSeconds > 2)
        #expect(info.format == format)
    }

    @Test func aPlaylistIsNotAudioWhateverItIsCalled() throws {
        let folder = try TemporaryFolder()
        let target = folder.path("target.flac")
        try runTool("sox", ["-n", "-r", "16000", "-c", "1", "-b", "16", target.path, "synth", "1", "sine", "440"])
        for (name, bytes) in [("a.m4a", HostileAudio.hlsPlaylist(naming: target)), ("b.webm", HostileAudio.concatList(naming: target)),
                              ("c.mp3", HostileAudio.hlsPlaylist(naming: target, live: true))] {
            let file = folder.path(name)
            try bytes.write(to: file)
            #expect(throws: SoundFileError.self) { try AudioIntegrity.probe(file) }
            #expect(throws: SoundFileError.self) { try AudioDecoder(url: file) }
        }
    }

    @Test func aDeclaredLengthOverTheLimitIsRefusedBeforeDecoding() throws {
        let folder = try TemporaryFolder()
        let bomb = try HostileAudio.silentFLAC(at: folder.path("bomb.flac"), seconds: 36000)
        let started = Date()
        #expect { try AudioIntegrity.probe(bomb) } throws: { ($0 as? AudioFileProblem)?.kind == .implausibleLength }
        #expect { try AudioDecoder(url: bomb) } throws: { ($0 as? AudioFileProblem)?.kind == .implausibleLength }
        #expect { try AudioIntegrity.probe(bomb, limit: DecodeLimit(maxSeconds: 180)) } throws: {
            ($0 as? AudioFileProblem)?.kind == .tooLong
        }
        #expect(Date().timeIntervalSince(started) < 1)

        // A length the header hides is bounded as the decode runs.
        let hidden = try HostileAudio.silentFLAC(at: folder.path("hidden.flac"), seconds: 3600, hideLength: true)
        let decoder = try AudioDecoder(url: hidden, limit: DecodeLimit(maxSeconds: 60))
        #expect { try decoder.skipToEnd() } throws: { ($0 as? AudioFileProblem)?.kind == .tooLong }
        #expect(decoder.framesRead < 8000 * 61 + 65536)
    }
}
