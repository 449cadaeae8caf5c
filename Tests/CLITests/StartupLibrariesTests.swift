import Foundation
import Testing
import VoiceJournalTestSupport
import VoiceJournalStore

/// Libraries only some commands need are loaded when first used, not at every start: libcrypto
/// (SHA-256 of stored files), libcurl (uploads), FFmpeg (formats libsndfile cannot read),
/// libsndfile and its codec libraries (decoding and writing files; a 16-bit WAV plays from its
/// own mapped bytes without it), libdbus (nudge's desktop notification).
/// The dynamic loader's own trace (`LD_DEBUG=files`) shows what a process loaded.
@Suite(.onTestThreads) struct StartupLibrariesTests {
    static func loaded(_ trace: String) -> Set<String> {
        Set(trace.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.range(of: "file=") else { return nil }
            return line[start.upperBound...].split(separator: " ").first.map(String.init)
        })
    }

    @Test func versionLoadsNeitherCryptoNorCurlNorFFmpegAndQueueingAFileLoadsCrypto() throws {
        let folder = try TemporaryFolder("vj-startup")
        let binary = VoicejournalBinary(home: folder.path("home"))
        let version = try binary.run(["--version"], environment: ["LD_DEBUG": "files"])
        let atStart = Self.loaded(version.stderr)
        #expect(version.status == 0)
        #expect(atStart.contains("libasound.so.2"), "the trace names what was loaded: \(atStart.sorted())")
        #expect(!atStart.contains { $0.hasPrefix("libcrypto") || $0.hasPrefix("libcurl") || $0.hasPrefix("libavformat") },
                "\(atStart.sorted())")
        #expect(!atStart.contains { $0.hasPrefix("libsndfile") || $0.hasPrefix("libFLAC") || $0.hasPrefix("libmpg123") },
                "\(atStart.sorted())")
        #expect(!atStart.contains { $0.hasPrefix("libdbus") || $0.hasPrefix("libsystemd") }, "nudge's alone: \(atStart.sorted())")

        // Queueing a file hashes it (the store's dedupe key): libcrypto comes in then, and works.
        let audio = try makeTone(at: folder.path("tone.wav"))
        let queued = try binary.run(["transcribe", audio.path, "--no-wait"], environment: ["LD_DEBUG": "files"])
        #expect(queued.status == 0, "\(queued.stderr.suffix(400))")
        #expect(Self.loaded(queued.stderr).contains("libcrypto.so.3"))
        let store = try JournalStore(home: DataHome(url: folder.path("home")), logger: TemporaryJournal.logger)
        let expected = try runTool("sha256sum", [audio.path]).split(separator: " ").first.map(String.init)
        #expect(try store.recording(id: 1)?.sha256 == expected, "the stored digest is sha256sum's")
    }

    @Test func aWAVPlaysWithoutLibsndfileAndAFLACLoadsItAndPlaysTheSameLength() throws {
        let folder = try TemporaryFolder("vj-startup-play")
        let binary = VoicejournalBinary(home: folder.path("home"))
        for (name, loadsSndfile) in [("tone.wav", false), ("tone.flac", true)] {
            let audio = try makeTone(at: folder.path(name), seconds: 0.5)
            let played = try binary.run(["play", audio.path, "--device", "null", "--json"], environment: ["LD_DEBUG": "files"])
            #expect(played.status == 0, "\(played.stderr.suffix(400))")
            let loaded = Self.loaded(played.stderr)
            #expect(loaded.contains("libasound.so.2"))
            #expect(loaded.contains("libsndfile.so.1") == loadsSndfile, "\(name): \(loaded.sorted())")
            let report = try JSONSerialization.jsonObject(with: Data(played.stdout.utf8)) as? [String: Any]
            #expect(report?["seconds"] as? Double == 0.5, "\(name): \(played.stdout)")
            #expect(report?["end"] as? String == "finished")
        }
    }
}
