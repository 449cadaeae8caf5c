import VoiceJournalAudio
import Foundation
import VoiceJournalSystem
import Logging
import VoiceJournalStore
import VoiceJournalTranscription

/// The encoded chunk files of split recordings, under `<home>/tmp/`: named for the runner
/// that wrote them (`<pid>-<nonce>-job<id>-part<n>.<ext>`), so a sweep can tell a file a
/// live runner is still writing from one a crashed runner left.
package struct ChunkFiles {
    /// Chunks are planned and encoded at 16 kHz mono (what Whisper hears anyway).
    package static let sampleRate = 16_000

    package let folder: URL
    package let owner: LeaseOwner
    package let home: DataHome

    package init(home: DataHome, owner: LeaseOwner) {
        self.home = home
        self.owner = owner
        folder = home.url.appendingPathComponent("tmp", isDirectory: true)
    }

    package func createFolder() throws { try home.createPrivateFolder(folder) }

    /// The file for chunk `index` (0-based) of job `jobId`.
    package func url(jobId: Int64, index: Int, codec: UploadCodec) -> URL {
        folder.appendingPathComponent("\(owner.pid)-\(owner.nonce)-job\(jobId)-part\(index + 1).\(codec.fileExtension)")
    }

    /// Removes a chunk file: `unlink`, so a path that names a folder (a damaged row) never
    /// takes the folder with it.
    package static func remove(_ url: URL) { unlink(url.path) }
    package static func remove(path: String) { remove(URL(fileURLWithPath: path)) }

    /// Removes the files no job needs any more, left by runners on this machine that are gone
    /// (a crash between encoding and queueing, or after a chunk plan was dropped). Files of
    /// live runners are theirs to finish.
    package func sweep(queue: JobQueue, logger: Logger) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !names.isEmpty,
              let inUse = try? queue.chunkPathsInUse() else { return }
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard !inUse.contains(url.path) else { continue }
            let parts = name.split(separator: "-", maxSplits: 2)
            guard parts.count == 3, let pid = Int32(parts[0]) else { continue }
            let writer = LeaseOwner(host: owner.host, pid: pid, nonce: String(parts[1]))
            guard writer.isGone || writer == owner else { continue }
            Self.remove(url)
            logger.debug("removed a chunk file no job needs", metadata: ["file": "\(name)"])
        }
    }

    /// Encodes what each chunk's upload holds (its stretch, or the pieces of it that are
    /// speech: `AudioChunk.uploadedRanges`) into its own file, 16 kHz mono, streamed: memory
    /// does not grow with the file. `shouldStop` is asked between blocks: a run told to
    /// stop (Ctrl-C) does not wait for a long file's encoding to end; it throws
    /// `CancellationError` and the caller removes the files.
    package static func encode(_ url: URL, chunks: [AudioChunk], to paths: [URL], codec: UploadCodec,
                       shouldStop: () -> Bool = { false }) throws {
        let stream = try MonoPCMStream(url: url, sampleRate: sampleRate)
        var position: Int64 = 0
        var index = 0
        var encoder: ChunkEncoder?
        while index < chunks.count, let block = try stream.next() {
            if shouldStop() { throw CancellationError() }
            let blockEnd = position + Int64(block.count)
            while index < chunks.count {
                let ranges = chunks[index].uploadedRanges
                for range in ranges {
                    let from = max(range.lowerBound, position), to = min(range.upperBound, blockEnd)
                    guard from < to else { continue }
                    let current = try encoder ?? ChunkEncoder(creating: paths[index], codec: codec, sampleRate: sampleRate)
                    encoder = current
                    try block[Int(from - position)..<Int(to - position)].withUnsafeBufferPointer { try current.write($0) }
                }
                guard (ranges.last?.upperBound ?? chunks[index].endSample) <= blockEnd else { break }
                try encoder?.close()
                encoder = nil
                index += 1
            }
            position = blockEnd
        }
        try encoder?.close()
        for path in paths where !FileManager.default.fileExists(atPath: path.path) {
            // A chunk past the decoded end (the length was an estimate): an empty file keeps
            // the plan whole, and the server answers it with no text.
            try ChunkEncoder(creating: path, codec: codec, sampleRate: sampleRate).close()
        }
    }
}
