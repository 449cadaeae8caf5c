@testable import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalSystem
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct SoundFileWriterTests {
    private func write(_ samples: [Int16], to writer: SoundFileWriter, channels: Int = 1) throws {
        try samples.withUnsafeBufferPointer { try writer.write($0.baseAddress!, frames: samples.count / channels) }
    }

    @Test func headerCoversEverythingWrittenBeforeTheLastUpdate() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("live.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 16000, channels: 1, comment: "take 1")
        let first = CaptureFixtures.sine(sampleRate: 16000, seconds: 0.5, dbfs: -6)
        try write(first, to: writer)
        try writer.updateHeader()
        try write(CaptureFixtures.sine(sampleRate: 16000, seconds: 0.25, dbfs: -20), to: writer)
        // The file as a killed recorder would leave it: header at the last update, more audio after.
        let snapshot = try WAVContents(url: url)
        #expect(snapshot.samples == first)
        #expect(snapshot.dataBytesOnDisk == (8000 + 4000) * 2)
        #expect(try SoundFileReader.probe(url).frames == 8000)
        try writer.close()
        #expect(try SoundFileReader.probe(url).frames == 12000)
    }

    @Test func repairExtendsTheHeaderToEveryWholeFrameOnDisk() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("killed.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 8000, channels: 2, comment: "x")
        let fed = CaptureFixtures.interleaved(CaptureFixtures.sine(sampleRate: 8000, seconds: 1, dbfs: -3),
                                              CaptureFixtures.sine(sampleRate: 8000, seconds: 1, dbfs: -9))
        try write(Array(fed.prefix(4000)), to: writer, channels: 2)
        try writer.updateHeader()
        try write(Array(fed.dropFirst(4000)), to: writer, channels: 2)
        let killed = folder.path("copy.wav")
        try FileManager.default.copyItem(at: url, to: killed)
        try writer.close()
        // Half a frame at the end, as if the kill hit mid-write.
        let handle = try FileHandle(forWritingTo: killed)
        try handle.seekToEnd()
        handle.write(Data([1, 2]))
        try handle.close()

        let info = try SoundFileRepair.repair(killed, container: .wav)
        #expect(info.frames == 8000)
        let repaired = try WAVContents(url: killed)
        #expect(repaired.samples == fed)
        #expect(repaired.riffSize == repaired.fileSize - 8)
        // A whole file is left alone.
        let before = try Data(contentsOf: url)
        _ = try SoundFileRepair.repair(url, container: .wav)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func repairOfAHeaderThatWasNeverUpdated() throws {
        var header = [UInt8]("RIFF".utf8) + [36, 0, 0, 0] + [UInt8]("WAVEfmt ".utf8) + [16, 0, 0, 0]
        header += [1, 0, 1, 0, 0x40, 0x1F, 0, 0, 0x80, 0x3E, 0, 0, 2, 0, 16, 0] + [UInt8]("data".utf8) + [0, 0, 0, 0]
        let layout = try WAVLayout.parse(header)
        #expect(layout.dataOffset == 44 && layout.blockAlign == 2 && layout.declaredDataSize == 0)
        let fix = try #require(layout.fix(fileSize: 44 + 1001))
        #expect(fix.dataSize == 1000 && fix.fileSize == 1044 && fix.riffSize == 1036)
        #expect(layout.fix(fileSize: 44) == nil)
        #expect(throws: WAVLayoutError.self) { try WAVLayout.parse([UInt8]("RIFX....WAVE".utf8)) }
    }

    @Test func repairOfAnUnfinishedFLACKeepsTheDecodableAudio() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("live.flac")
        let writer = try SoundFileWriter(creating: url, container: .flac, sampleRate: 16000, channels: 1)
        let fed = CaptureFixtures.sine(sampleRate: 16000, seconds: 3, dbfs: -6, frequency: 300)
        try write(fed, to: writer)
        let killed = folder.path("killed.flac")
        try FileManager.default.copyItem(at: url, to: killed)  // before close: no final STREAMINFO
        try writer.close()
        let info = try SoundFileRepair.repair(killed, container: .flac)
        // libFLAC still holds the last block or so in memory; all that reached the disk is kept.
        #expect(info.frames > 40_000 && info.frames <= 48_000)
        let reader = try SoundFileReader(url: killed)
        #expect(try reader.readInt16(frames: Int(info.frames)) == Array(fed.prefix(Int(info.frames))))
    }

    @Test func theFileIsLockedWhileBeingWritten() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("locked.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 16000, channels: 1)
        #expect(FileLock.attempt(url) == nil)
        try writer.close()
        let lock = FileLock.attempt(url)
        #expect(lock != nil)
        #expect(throws: SoundFileError.self) {
            try SoundFileWriter(creating: url, container: .wav, sampleRate: 16000, channels: 1)
        }
    }

    @Test func waveformColumnsFollowTheSignal() throws {
        let folder = try TemporaryFolder()
        let url = folder.path("halves.wav")
        let writer = try SoundFileWriter(creating: url, container: .wav, sampleRate: 8000, channels: 1)
        try write(CaptureFixtures.sine(sampleRate: 8000, seconds: 1, dbfs: -6, frequency: 500)
                  + CaptureFixtures.sine(sampleRate: 8000, seconds: 1, dbfs: -30, frequency: 500), to: writer)
        try writer.close()
        let summary = try WaveformSummary.make(of: url, columns: 10)
        #expect(summary.info.frames == 16000)
        for column in summary.columns[0..<5] { #expect(abs(column.peak - 0.501) < 0.01 && abs(column.rms - 0.354) < 0.01) }
        for column in summary.columns[5...] { #expect(abs(column.peak - 0.0316) < 0.001) }
        #expect(abs(summary.levels.peakDBFS - -6) < 0.01)
    }
}

@Suite struct BlockQueueTests {
    @Test func blocksArriveInOrderAndNoneIsLostWhenTheWriterLags() async throws {
        let queue = BlockQueue(blocks: 3, samplesPerBlock: 4)
        let producer = Thread {
            for value in 0..<200 {
                let block = queue.takeFree()
                queue.samples(block).update(repeating: Int16(value), count: 4)
                queue.pushFilled(block, frames: 4)
            }
            queue.close()
        }
        producer.start()
        var seen: [Int16] = []
        while let (block, frames) = queue.takeFilled().map({ ($0.index, $0.frames) }) {
            #expect(frames == 4)
            seen.append(queue.samples(block)[0])
            if seen.count % 50 == 0 { usleep(20_000) }  // a slow disk
            queue.giveBack(block)
        }
        #expect(seen == (0..<200).map { Int16($0) })
        #expect(queue.waitsForSpace > 0)
    }
}
