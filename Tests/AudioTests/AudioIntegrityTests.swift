@testable import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

/// Truncated audio is told from whole audio by what the header promises, not by decoding it all.
@Suite(.onTestThreads) struct AudioIntegrityTests {
    /// A 9 s tone in `name` (the extension picks the container), and a copy cut to `keep` bytes
    /// (or to half the file when nil).
    private func toneAndCut(_ name: String, keep: Int? = nil, in folder: TemporaryFolder) throws -> (whole: URL, cut: URL) {
        let whole = try makeTone(at: folder.path(name), seconds: 9)
        let data = try Data(contentsOf: whole)
        let cut = folder.path("cut-\(name)")
        try data.prefix(keep ?? data.count / 2).write(to: cut)
        return (whole, cut)
    }

    private func reason(probing url: URL) -> String? {
        do {
            _ = try AudioIntegrity.probe(url)
            return nil
        } catch let problem as AudioFileProblem {
            #expect(problem.kind == .truncated)
            return problem.reason
        } catch {
            return "\(error)"
        }
    }

    @Test func aWAVCutTo100000BytesIsTruncatedWithBothDurations() throws {
        let folder = try TemporaryFolder()
        let (whole, cut) = try toneAndCut("tone.wav", keep: 100_000, in: folder)
        #expect(reason(probing: whole) == nil)
        // libsndfile alone would call it a whole 3.1 s file.
        #expect(abs(try SoundFileReader.probe(cut).durationSeconds - 3.12) < 0.01)
        #expect(reason(probing: cut) == "truncated: the header says 9.0 s, the file holds 3.1 s")
    }

    @Test(arguments: ["aiff", "w64"])
    func otherChunkedContainersAreCheckedByTheirHeader(fileExtension: String) throws {
        let folder = try TemporaryFolder()
        let (whole, cut) = try toneAndCut("tone.\(fileExtension)", keep: 100_000, in: folder)
        #expect(reason(probing: whole) == nil)
        #expect(reason(probing: cut) == "truncated: the header says 9.0 s, the file holds 3.1 s")
    }

    @Test func aFLACCutInHalfIsTruncatedAndSaysAboutHowMuchIsLeft() throws {
        let folder = try TemporaryFolder()
        let (whole, cut) = try toneAndCut("tone.flac", in: folder)
        #expect(reason(probing: whole) == nil)
        let said = try #require(reason(probing: cut))
        #expect(said.hasPrefix("truncated: the header says 9.0 s, the file holds "))
        // Half the bytes of a steady tone hold about half its length.
        let held = try #require(Double(said.split(separator: " ").dropLast().last ?? ""))
        #expect(held > 3 && held < 6, "\(said)")
    }

    @Test func anOggCutInHalfHasNoEnd() throws {
        let folder = try TemporaryFolder()
        let (whole, cut) = try toneAndCut("tone.ogg", in: folder)
        #expect(reason(probing: whole) == nil)
        #expect(reason(probing: cut) == "truncated: the end of the file is missing")
    }

    @Test func aWAVWrittenToAPipeDoesNotKnowItsLengthAndIsNotTruncated() throws {
        let folder = try TemporaryFolder()
        let tone = try makeTone(at: folder.path("tone.wav"), seconds: 1)
        var header = [UInt8](try Data(contentsOf: tone))
        let layout = try WAVLayout.parse(header)
        header.replaceSubrange(layout.dataSizeOffset..<layout.dataSizeOffset + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(DeclaredAudioSize.parse(header) == nil)
        let streamed = folder.path("streamed.wav")
        try Data(header).write(to: streamed)
        #expect(reason(probing: streamed) == nil)
    }

    @Test func theHeaderCheckCountsOnlyWholeMissingFrames() throws {
        let folder = try TemporaryFolder()
        let header = [UInt8](try Data(contentsOf: try makeTone(at: folder.path("tone.wav"), seconds: 1)))
        let size = try #require(DeclaredAudioSize.parse(header))
        #expect(size.declaredBytes == 32000 && size.bytesPerFrame == 2)
        let whole = size.dataOffset + size.declaredBytes
        #expect(size.missingBytes(fileSize: whole) == 0)
        #expect(size.missingBytes(fileSize: whole + 100) == 0)  // chunks after the audio
        #expect(size.missingBytes(fileSize: whole - 1) == 0)    // a torn last frame
        #expect(size.missingBytes(fileSize: whole - 2) == 2)
        #expect(size.missingBytes(fileSize: 20) == 32000)
        #expect(DeclaredAudioSize.parse([UInt8]("fLaC and more bytes".utf8)) == nil)
    }
}

/// Only a readable regular file is audio: nothing else is opened.
@Suite(.onTestThreads) struct RegularFileTests {
    private func problem(_ url: URL) -> AudioFileProblem? {
        do {
            try RegularFile.check(url)
            return nil
        } catch {
            return error
        }
    }

    @Test func pipesDevicesAndFoldersAreRefusedWithoutBeingOpened() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("stream.wav")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // Opening the FIFO would block this test forever: the check must not.
        #expect(problem(fifo)?.reason == "not a regular file (a pipe)")
        #expect(problem(URL(fileURLWithPath: "/dev/urandom"))?.reason == "not a regular file (a character device)")
        #expect(problem(folder.url)?.reason == "a folder, not an audio file")
        #expect(throws: AudioFileProblem.self) { try SoundFileReader(url: fifo) }
    }

    @Test func linksAreFollowedAndBrokenOnesSaySo() throws {
        let folder = try TemporaryFolder()
        let tone = try makeTone(at: folder.path("tone.wav"))
        let link = folder.path("link.wav"), dangling = folder.path("dangling.wav"), loop = folder.path("loop.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: tone)
        try FileManager.default.createSymbolicLink(atPath: dangling.path, withDestinationPath: "gone.wav")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop.wav")
        #expect(try RegularFile.check(link).sizeBytes == (try Data(contentsOf: tone)).count)
        #expect(problem(dangling).map { [$0.kind == .brokenLink, $0.reason == "a symbolic link to gone.wav, which does not exist"] } == [true, true])
        #expect(problem(loop)?.reason == "a loop of symbolic links")
        #expect(problem(folder.path("missing.wav"))?.description == "\(folder.path("missing.wav").path): no such file")
    }
}
