import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalAudio

/// Container dates come from bounded header walks: a crafted header gives no date, never a crash.
@Suite struct RecordedDateHeaderTests {
    func file(_ bytes: [UInt8], _ folder: TemporaryFolder, _ name: String) throws -> URL {
        let url = folder.path(name)
        try Data(bytes).write(to: url)
        return url
    }

    func bigEndian(_ value: UInt64, _ width: Int) -> [UInt8] { (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }

    @Test func craftedMP4BoxSizesGiveNoDate() throws {
        let folder = try TemporaryFolder()
        let ftyp = bigEndian(16, 4) + Array("ftypM4A ".utf8) + [0, 0, 0, 0]
        // A 64-bit box size near the top of the range: adding it to the offset would overflow.
        let huge = ftyp + bigEndian(1, 4) + Array("moov".utf8) + bigEndian(UInt64.max - 4, 8)
        #expect(RecordedDate.of(try file(huge, folder, "huge.m4a")) == nil)
        // A box smaller than its own header, and one running past the file's end.
        #expect(RecordedDate.of(try file(ftyp + bigEndian(3, 4) + Array("moov".utf8), folder, "tiny.m4a")) == nil)
        #expect(RecordedDate.of(try file(ftyp + bigEndian(4096, 4) + Array("moov".utf8), folder, "past.m4a")) == nil)
        // A well-formed mvhd (version 0) at 2026-11-22 08:15:00 UTC is read.
        let seconds = UInt64(1_795_335_300) + 2_082_844_800
        let mvhd = bigEndian(8 + 8, 4) + Array("mvhd".utf8) + [0, 0, 0, 0] + bigEndian(seconds, 4)
        let moov = bigEndian(UInt64(8 + mvhd.count), 4) + Array("moov".utf8) + mvhd
        #expect(RecordedDate.of(try file(ftyp + moov, folder, "good.m4a")) == Date(timeIntervalSince1970: 1_795_335_300))
    }

    @Test func craftedBextGivesNoDate() throws {
        let folder = try TemporaryFolder()
        let riff = Array("RIFF".utf8) + [0xFF, 0xFF, 0xFF, 0xFF] + Array("WAVE".utf8)
        // A bext too short for its date, then a date that is not one.
        #expect(RecordedDate.of(try file(riff + Array("bext".utf8) + [10, 0, 0, 0] + Array(repeating: 0, count: 10), folder, "short.wav")) == nil)
        var body = [UInt8](repeating: 0, count: 338)
        body.replaceSubrange(320..<338, with: Array("2026-13-4507:30:15".utf8))
        #expect(RecordedDate.of(try file(riff + Array("bext".utf8) + [0x52, 1, 0, 0] + body, folder, "month13.wav")) == nil)
        body.replaceSubrange(320..<338, with: Array("2026:11:2007-30-15".utf8))
        let utc = TimeZone(identifier: "UTC")!
        #expect(RecordedDate.of(try file(riff + Array("bext".utf8) + [0x52, 1, 0, 0] + body, folder, "colons.wav"), timeZone: utc)
                == Date(timeIntervalSince1970: 1_795_159_815))
    }
}
