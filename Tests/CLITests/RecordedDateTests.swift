import Foundation
import Testing
import VoiceJournalTestSupport

/// An old memo transcribed today keeps the day it was recorded: its container's date, else
/// its modification time; `--date` says otherwise.
@Suite(.onTestThreads) struct RecordedDateTests {
    /// The entries' dates by title (the file's name), as stored.
    func entryDates(_ harness: TranscribeHarness) throws -> [String: String] {
        let rows = try queryDatabase(harness.database, "SELECT title, strftime('%Y-%m-%dT%H:%M:%S', createdAt) FROM entry")
        return Dictionary(uniqueKeysWithValues: rows.map { ($0[0] as? String ?? "", $0[1] as? String ?? "") })
    }

    @Test func eachEntryIsDatedWhenItsAudioWasRecorded() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let dir = try harness.tones(["tone.wav"], in: "memos", seconds: 1)
        let tone = dir.appendingPathComponent("tone.wav")
        // A Broadcast WAV: its bext chunk says when (the recorder's local time, here UTC).
        _ = try runTool("ffmpeg", ["-loglevel", "error", "-y", "-i", tone.path, "-write_bext", "1", "-metadata", "origination_date=2026-11-20",
                                   "-metadata", "origination_time=07:30:15", "-c:a", "pcm_s16le", dir.appendingPathComponent("field.wav").path])
        // An M4A: its movie header's creation time (UTC).
        _ = try runTool("ffmpeg", ["-loglevel", "error", "-y", "-i", tone.path, "-c:a", "aac", "-b:a", "48k",
                                   "-metadata", "creation_time=2026-11-22T08:15:00Z", dir.appendingPathComponent("phone.m4a").path])
        // A plain file says nothing: its modification time.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_763_450_000)], ofItemAtPath: tone.path)

        let result = try harness.binary.run(["transcribe", dir.path, "--journal", "Personal"])
        #expect(result.status == 0, "\(result.stderr)")
        let dates = try entryDates(harness)
        #expect(dates["field.wav"] == "2026-11-20T07:30:15", "\(dates)")
        #expect(dates["phone.m4a"] == "2026-11-22T08:15:00", "\(dates)")
        #expect(dates["tone.wav"] == "2025-11-18T07:13:20", "\(dates)")
        // The list shows them in the order they were recorded, with those dates.
        let list = try harness.binary.run(["entry", "list"]).stdout
        #expect(list.contains("2026-11-20 07:30") && list.contains("2026-11-22 08:15") && list.contains("2025-11-18 07:13"), "\(list)")
    }

    @Test func dateOverridesEveryFilesOwn() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let dir = try harness.tones(["a.wav", "b.wav"], in: "memos")
        let result = try harness.binary.run(["transcribe", dir.path, "--journal", "Personal", "--date", "2026-03-04T05:06"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Set(entryDates(harness).values) == ["2026-03-04T05:06:00"])
        let alone = try harness.binary.run(["transcribe", dir.path, "--date", "2026-03-04"])
        #expect(alone.status == 2 && alone.stderr.contains("give --journal too"), "\(alone.stderr)")
    }

    @Test func aCraftedHeaderGivesNoDateAndNoCrash() throws {
        let harness = try TranscribeHarness(environment: ["TZ": "UTC"])
        let dir = try harness.tones(["tone.wav"], in: "memos")
        let tone = dir.appendingPathComponent("tone.wav")
        var bytes = try Data(contentsOf: tone)
        // A chunk whose size runs past the end, before the real ones: the walk stops, the file is still audio.
        let bogus = Data("bext".utf8) + Data([0xFF, 0xFF, 0xFF, 0x7F])
        bytes.insert(contentsOf: bogus, at: 12)
        try bytes.write(to: dir.appendingPathComponent("crafted.wav"))
        try FileManager.default.removeItem(at: tone)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_763_450_000)],
                                              ofItemAtPath: dir.appendingPathComponent("crafted.wav").path)
        let result = try harness.binary.run(["transcribe", dir.path, "--journal", "Personal"])
        // Whether or not libsndfile reads it, nothing crashes; an entry made is dated by the file's time.
        #expect(result.status == 0 || result.status == 1, "\(result.stderr)")
        for date in try entryDates(harness).values { #expect(date == "2025-11-18T07:13:20") }
    }
}
