import Foundation
import Pipeline
import Testing
import TestSupport

@Suite struct BatchScannerTests {
    @Test func sortsAudioFromEverythingElseAndSaysWhy() throws {
        let folder = try TemporaryFolder()
        let root = folder.path("Recordings")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("2024/März"), withIntermediateDirectories: true)
        let good = try makeTone(at: root.appendingPathComponent("2024/März/Sprachnotiz Ärger é.wav"))
        let flac = try makeTone(at: root.appendingPathComponent("b.flac"))
        try Data("not audio".utf8).write(to: root.appendingPathComponent("notes.txt"))
        try Data().write(to: root.appendingPathComponent("empty.wav"))
        try Data(try Data(contentsOf: good).prefix(20)).write(to: root.appendingPathComponent("truncated.wav"))
        try Data(repeating: 7, count: 100).write(to: root.appendingPathComponent("voice.m4a"))
        try Data("x".utf8).write(to: root.appendingPathComponent(".hidden.wav"))

        let scan = BatchScanner.scan([root.path, folder.path("missing.wav").path])
        #expect(scan.audio.map(\.url.lastPathComponent) == ["Sprachnotiz Ärger é.wav", "b.flac", "voice.m4a"])
        #expect(scan.audio[0].info?.sampleRate == 16000)
        #expect(scan.audio[1].info?.format == "flac")
        #expect(scan.audio[2].info == nil) // accepted by extension: libsndfile does not read m4a
        _ = flac

        let reasons = Dictionary(uniqueKeysWithValues: scan.skipped.map { ($0.url.lastPathComponent, $0) })
        #expect(reasons.keys.sorted() == ["empty.wav", "missing.wav", "notes.txt", "truncated.wav"])
        #expect(reasons["empty.wav"]?.reason == "empty file")
        #expect(reasons["notes.txt"]?.reason.hasPrefix("not audio") == true)
        #expect(reasons["truncated.wav"]?.reason.contains("not a readable WAV file") == true)
        #expect(reasons["missing.wav"]?.wasNamed == true)
        #expect(reasons["notes.txt"]?.wasNamed == false)
    }
}
