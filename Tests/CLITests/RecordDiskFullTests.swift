import Foundation
import Testing
import VoiceJournalTestSupport

/// A disk that fills up while `record` is writing the take: the command says so in one line
/// and exits 1, the journal still opens, and the audio on disk is a valid file holding what
/// could be written.
@Suite(.onTestThreads) struct RecordDiskFullTests {
    @Test(.enabled(if: SmallDisk.isAvailable, "needs root and a container that may mount tmpfs (mount -t tmpfs); skipped"))
    func aDiskThatFillsDuringARecordingIsOneLineExit1AndLeavesAValidFile() throws {
        let folder = try TemporaryFolder()
        // 60 s of 16 kHz mono is 1.9 MB: more than the 1 MiB disk holds next to the database.
        let fed = CaptureFixtures.sine(sampleRate: 16000, seconds: 60, dbfs: -20)
        let microphone = try VirtualMicrophone(in: folder.url, samples: fed)
        let disk = try SmallDisk(at: folder.path("disk"), bytes: 1024 * 1024)
        let binary = VoicejournalBinary(home: disk.url.appendingPathComponent("home"), environment: microphone.environment)

        let result = try binary.run(["record", "--device", microphone.name, "--max-duration", "60", "--no-meter"])
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("voicejournal:") == true)
        #expect(result.stderr.contains("No space left on device") || result.stderr.contains("disk is full"), "\(result.stderr)")

        // The journal still opens and reads on the full disk.
        let listing = try binary.run(["entry", "list", "--json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let database = binary.home.appendingPathComponent("voicejournal.sqlite")
        #expect(try queryDatabase(database, "PRAGMA integrity_check").first?.first as? String == "ok")

        // Whatever WAV was left is whole: its header covers exactly the audio on disk, and
        // the samples are the ones fed, in order.
        let audio = binary.home.appendingPathComponent("audio")
        let files = (FileManager.default.enumerator(atPath: audio.path)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".wav") }
        for file in files {
            let wav = try WAVContents(url: audio.appendingPathComponent(file))
            #expect(wav.declaredDataBytes <= wav.dataBytesOnDisk)
            #expect(wav.samples == Array(fed.prefix(wav.samples.count)))
        }
        withExtendedLifetime(disk) {}
    }
}
