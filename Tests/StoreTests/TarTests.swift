import Foundation
import Testing
@testable import VoiceJournalStore

/// The tar headers a backup is made of: what GNU tar reads, and what a reader refuses.
@Suite struct TarTests {
    @Test func aLongNameGoesIntoThePrefixAndGNUTarReadsItBack() throws {
        let folder = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                                 appropriateFor: URL(fileURLWithPath: "/tmp"), create: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "audio/" + String(repeating: "long-folder-name/", count: 6) + "take.wav"
        #expect(name.utf8.count > 100)
        let url = folder.appendingPathComponent("t.tar")
        FileManager.default.createFile(atPath: url.path, contents: nil)
        let handle = try FileHandle(forWritingTo: url)
        var writer = TarWriter(handle: handle)
        let written = try writer.add(Data("hello".utf8), name: name, modified: Date(timeIntervalSince1970: 1_700_000_000))
        try writer.finish()
        try handle.close()
        #expect(written.sha256 == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tar")
        process.arguments = ["tf", url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        process.waitUntilExit()
        #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == name + "\n")
        // And it reads back the same.
        let reading = try FileHandle(forReadingFrom: url)
        var reader = TarReader(handle: reading, limit: UInt64(try Data(contentsOf: url).count))
        let header = try #require(try reader.next())
        #expect(header.name == name && header.size == 5 && header.kind == .file)
        var content = Data()
        try reader.content { content.append($0) }
        #expect(content == Data("hello".utf8))
        #expect(try reader.next() == nil)
    }

    @Test func sizesPastEightGigabytesUseBase256() throws {
        let header = TarHeader(name: "audio/big.wav", size: 9 << 30, modified: Date(timeIntervalSince1970: 0))
        let block = try header.encoded()
        #expect(block[124] == 0x80)
        #expect(try TarHeader.decode(block)?.size == 9 << 30)
    }

    @Test func aHeaderWithAWrongChecksumOrNotUstarIsRefused() throws {
        var block = try TarHeader(name: "a", size: 1, modified: Date()).encoded()
        block[0] = UInt8(ascii: "b")
        #expect(throws: TarError.self) { try TarHeader.decode(block) }
        var other = try TarHeader(name: "a", size: 1, modified: Date()).encoded()
        other[257] = 0
        #expect(throws: TarError.self) { try TarHeader.decode(other) }
        #expect(try TarHeader.decode([UInt8](repeating: 0, count: 512)) == nil)
    }

    @Test func backupNamesStayUnderAudioAndPlain() {
        let home = DataHome(url: URL(fileURLWithPath: "/home/me/.local/share/voicejournal"))
        #expect(BackupName.name(forAudioAt: "/home/me/.local/share/voicejournal/audio/2026/11/take.wav", recording: 3, home: home)
                == "audio/2026/11/take.wav")
        #expect(BackupName.name(forAudioAt: "/home/me/memos/Grüße vom Meer!.m4a", recording: 7, home: home)
                == "audio/from-elsewhere/7-Grüße vom Meer_.m4a")
        let long = BackupName.name(forAudioAt: "/x/" + String(repeating: "a", count: 300) + ".flac", recording: 1, home: home)
        #expect(long.hasSuffix(".flac") && BackupName.isAcceptable(long))
        for bad in ["audio/../x", "audio/./x", "audio//x", "/audio/x", "tmp/x", "audio/.hidden", "audio/a\u{1B}b", "audio"] {
            #expect(!BackupName.isAcceptable(bad), "\(bad)")
        }
    }
}
