import Foundation
import Testing
import VoiceJournalTestSupport

/// A disk that fills up while `transcribe` waits for the server: the transcript cannot be
/// stored, the command says so in one line and exits 1, and nothing is lost or half-written.
@Suite(.onTestThreads) struct TranscribeDiskFullTests {
    @Test(.enabled(if: SmallDisk.isAvailable, "needs root and a container that may mount tmpfs (mount -t tmpfs); skipped"))
    func aDiskFullWhenTheTranscriptArrivesIsOneLineExit1AndTheRunResumesLater() throws {
        // The server answers after 8 s: ample time to fill the disk once the job is claimed.
        let harness = try TranscribeHarness(delay: 8)
        let disk = try SmallDisk(at: harness.folder.path("disk"), bytes: 2 * 1024 * 1024)
        let input = try harness.audio(1)
        let binary = VoicejournalBinary(home: disk.url.appendingPathComponent("home"), environment: harness.binary.environment)
        let database = binary.home.appendingPathComponent("voicejournal.sqlite")

        let running = try binary.start(["transcribe", input.path])
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let claimed = FileManager.default.fileExists(atPath: database.path)
                && (try? queryDatabase(database, "SELECT count(*) FROM job WHERE state = 'running'"))?.first?.first as? Int == 1
            if claimed { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        try disk.fill()
        let result = running.wait()
        #expect(result.status == 1, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n").filter { $0.hasPrefix("voicejournal:") }
        #expect(lines == ["voicejournal: the disk is full: the journal in \(binary.home.path) cannot be written; free some space and try again"],
                "\(result.stderr)")

        // Still full: the journal opens and reads, and holds no part of the transcript.
        let status = try binary.run(["queue", "status", "--json"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(try queryDatabase(database, "SELECT count(*) FROM transcript").first?.first as? Int == 0)
        #expect(try queryDatabase(database, "SELECT count(*) FROM search_index WHERE ownerKind = 'transcript'").first?.first as? Int == 0)
        #expect(try queryDatabase(database, "PRAGMA integrity_check").first?.first as? String == "ok")

        // With room again, the same command finishes the file, once.
        try disk.empty()
        let again = try binary.run(["transcribe", input.path])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try queryDatabase(database, "SELECT count(*) FROM transcript").first?.first as? Int == 1)
        // The disk is unmounted before its mount point's folder is removed.
        withExtendedLifetime(disk) {}
        withExtendedLifetime(harness) {}
    }
}
