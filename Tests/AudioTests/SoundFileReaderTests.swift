import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct SoundFileReaderTests {
    @Test(arguments: [("wav", "wav"), ("flac", "flac"), ("ogg", "oga")])
    func probesContainerRateChannelsAndFrames(fileExtension: String, expectedFormat: String) throws {
        let folder = try TemporaryFolder()
        let file = folder.path("tone.\(fileExtension)")
        try runTool("sox", ["-n", "-r", "22050", "-c", "2", "-b", "16", file.path, "synth", "1.5", "sine", "440"])
        let info = try SoundFileReader.probe(file)
        #expect(info.format == expectedFormat)
        #expect(info.sampleRate == 22050)
        #expect(info.channels == 2)
        #expect(info.frames == 33075)
        #expect(abs(info.durationSeconds - 1.5) < 1e-9)
    }

    @Test func readsExactlyTheSamplesWritten() throws {
        let folder = try TemporaryFolder()
        let raw = folder.path("ramp.raw"), wav = folder.path("ramp.wav")
        let samples: [Int16] = (0..<1000).map { Int16($0 * 30 - 15000) }
        try samples.withUnsafeBytes { try Data($0).write(to: raw) }
        try runTool("sox", ["-t", "raw", "-r", "8000", "-e", "signed", "-b", "16", "-c", "1", raw.path, wav.path])
        let reader = try SoundFileReader(url: wav)
        #expect(try reader.readInt16(frames: 600) == Array(samples[0..<600]))
        #expect(try reader.readInt16(frames: 600) == Array(samples[600...]))
        #expect(try reader.readInt16(frames: 600).isEmpty)
    }

    @Test func refusesTextWithLibsndfilesReason() throws {
        let folder = try TemporaryFolder()
        let notes = folder.path("notes.wav")
        try Data("not audio at all".utf8).write(to: notes)
        #expect {
            try SoundFileReader.probe(notes)
        } throws: { error in
            let message = String(describing: error)
            return message.contains("notes.wav") && message.contains("cannot open")
        }
    }

    @Test func aMissingFileSaysSoPlainly() throws {
        let folder = try TemporaryFolder()
        #expect {
            try SoundFileReader.probe(folder.path("gone.wav"))
        } throws: { error in
            String(describing: error).hasSuffix("gone.wav: no such file")
        }
    }
}
