import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalQueue
import VoiceJournalStore
import Synchronization
import VoiceJournalTranscription
import VoiceJournalSystem

/// Cuts a recording in progress into pieces at its pauses and queues each as a chunk job of
/// the recording, so they are transcribed while the speaker goes on.
///
/// The capture's writer thread hands each block over (`take`: downmixed to 16 kHz mono there,
/// never a wait: a third of the block's bytes to hold until used); a thread of its own
/// measures it into a `SpeechMap`, asks a
/// `LivePieceCutter` where to cut, encodes each piece as FLAC under `<home>/tmp/` and queues
/// it (`JobQueue.addLivePiece`). Nothing here can hold up capture: a slow disk or store
/// only makes pieces late. A failure stops the pieces, never the recording: the next command
/// (or `finish`) plans the part no piece covers from the file.
final class LivePieces: Sendable {
    let jobId: Int64
    private let recordingId: Int64
    private let queue: JobQueue
    private let files: ChunkFiles
    private let cutter: LivePieceCutter
    private let channels: Int
    private let logger: Logger
    private let onPiece: @Sendable (Int64) -> Void
    private let inbox = Mutex(Inbox())
    /// Used by `take` (the writer thread) while capture runs, then by `finish` for its tail.
    private let resampler: Mutex<SpeechResampler?>
    private let arrived = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)
    /// The thread's own state; `finish` reads it only after the thread has ended.
    private let cutting: Mutex<Cutting>

    private struct Inbox {
        /// 16 kHz mono blocks not yet measured.
        var blocks: [[Float]] = []
        /// Resampling failed: the pieces stop.
        var failure: (any Error)?
        var closed = false
    }

    /// What the piece thread keeps: the map, and the samples from `cursor` on.
    struct Cutting {
        var map = SpeechMap(sampleRate: ChunkFiles.sampleRate)
        /// The first sample not yet in a piece (16 kHz, from the start of the recording).
        var cursor: Int64 = 0
        /// Samples from `bufferStart` to the end of what was measured.
        var buffer: [Float] = []
        var bufferStart: Int64 = 0
        var queued = 0
        /// The pieces stopped: the store or the disk failed (`broken`), or the plan is gone.
        var broken = false
        var gone = false
    }

    init(jobId: Int64, recordingId: Int64, queue: JobQueue, format: CaptureFormat, owner: LeaseOwner, cutter: LivePieceCutter,
         logger: Logger, onPiece: @escaping @Sendable (Int64) -> Void) throws {
        self.jobId = jobId
        self.recordingId = recordingId
        self.queue = queue
        self.cutter = cutter
        self.logger = logger
        self.onPiece = onPiece
        channels = format.channels
        files = ChunkFiles(home: queue.home, owner: owner)
        // Cheap enough to run on the writer thread: a whole factor down (48 kHz) is decimated, any
        // other rate goes through the fastest sinc; both keep the band a 16 kHz model hears.
        resampler = Mutex(format.sampleRate == ChunkFiles.sampleRate ? nil
            : try SpeechResampler(from: format.sampleRate, to: ChunkFiles.sampleRate))
        cutting = Mutex(Cutting())
        try files.createFolder()
        DedicatedThread.start(name: "voicejournal live pieces") { [self] in
            run()
            ended.signal()
        }
    }

    /// Takes a captured block (interleaved 16-bit) as 16 kHz mono: called on the writer thread.
    func take(_ samples: UnsafeBufferPointer<Int16>) {
        guard !samples.isEmpty else { return }
        let mono = downmixToMono(samples, channels: channels)
        let converted = resampler.withLock { resampler -> Result<[Float], any Error> in
            guard let resampler else { return .success(mono) }
            return Result { try mono.withUnsafeBufferPointer { try resampler.process($0) } }
        }
        let wasEmpty = inbox.withLock { inbox in
            defer {
                switch converted {
                case .success(let block): if inbox.failure == nil { inbox.blocks.append(block) }
                case .failure(let error): inbox.failure = inbox.failure ?? error
                }
            }
            return inbox.blocks.isEmpty && inbox.failure == nil
        }
        // The thread takes every waiting block at once: one wake-up per batch, not per block.
        if wasEmpty { arrived.signal() }
    }

    private func run() {
        while true {
            arrived.wait()
            let (blocks, failure, closed) = inbox.withLock { inbox in
                defer { inbox.blocks.removeAll() }
                return (inbox.blocks, inbox.failure, inbox.closed)
            }
            cutting.withLock { state in
                for block in blocks { absorb(block, into: &state) }
                if let failure, !state.broken { stop(&state, because: failure) }
                cutReadyPieces(&state)
            }
            if closed { return }
        }
    }

    private func absorb(_ mono: [Float], into state: inout Cutting) {
        guard !state.broken else { return }
        state.map.append(mono)
        state.buffer += mono
    }

    private func cutReadyPieces(_ state: inout Cutting) {
        guard !state.broken, !state.gone else { return forget(upTo: state.map.sampleCount, &state) }
        let speech = state.map.speechRanges
        while let piece = cutter.nextPiece(speech: speech, cursor: state.cursor, sampleCount: state.map.sampleCount,
                                           sampleRate: ChunkFiles.sampleRate) {
            guard queue(piece, &state) else { return }
            state.cursor = piece.endSample
        }
        // A long silence is never a piece: keep only its last second, where speech may begin.
        if cutter.lastPieces(speech: speech, cursor: state.cursor, sampleCount: state.map.sampleCount,
                             sampleRate: ChunkFiles.sampleRate).isEmpty {
            state.cursor = max(state.cursor, state.map.sampleCount - Int64(ChunkFiles.sampleRate))
        }
        forget(upTo: state.cursor, &state)
    }

    /// Drops buffered samples before `sample`.
    private func forget(upTo sample: Int64, _ state: inout Cutting) {
        let drop = Int(min(max(sample - state.bufferStart, 0), Int64(state.buffer.count)))
        guard drop >= ChunkFiles.sampleRate else { return } // in whole seconds: cheap
        state.buffer.removeFirst(drop)
        state.bufferStart += Int64(drop)
    }

    /// Encodes a piece and queues it; false when the pieces stopped.
    @discardableResult
    private func queue(_ piece: AudioChunk, _ state: inout Cutting) -> Bool {
        guard let planned = encode(piece, index: state.queued, &state) else { return false }
        do {
            guard let job = try queue.addLivePiece(jobId: jobId, piece: planned) else {
                ChunkFiles.remove(path: planned.path)
                state.gone = true
                logger.info("live pieces stopped: the recording's job is no longer waiting for them", metadata: ["job": "\(jobId)"])
                return false
            }
            state.queued += 1
            logger.debug("live piece queued", metadata: ["job": "\(jobId)", "piece": "\(state.queued)",
                                                         "start": "\(planned.startSeconds)", "end": "\(planned.endSeconds ?? 0)"])
            onPiece(try job.storedId())
            return true
        } catch {
            ChunkFiles.remove(path: planned.path)
            stop(&state, because: error)
            return false
        }
    }

    /// Encodes a piece's speech (its long pauses shortened, `PauseShortening`) from the buffer.
    private func encode(_ cut: AudioChunk, index: Int, _ state: inout Cutting) -> PlannedChunk? {
        let piece = PauseShortening().shortened(cut, speech: state.map.speechRanges)
        let url = files.url(jobId: jobId, index: index, codec: .flac)
        do {
            let encoder = try ChunkEncoder(creating: url, codec: .flac, sampleRate: ChunkFiles.sampleRate, fastestFLAC: true)
            for range in piece.uploadedRanges {
                let from = Int(range.lowerBound - state.bufferStart), to = Int(range.upperBound - state.bufferStart)
                guard from >= 0, to <= state.buffer.count, from < to else {
                    throw RecordingError(.pieceOutsideBuffer, "piece \(range.lowerBound)..<\(range.upperBound) is not in the buffer")
                }
                try state.buffer[from..<to].withUnsafeBufferPointer { try encoder.write($0) }
            }
            try encoder.close()
        } catch {
            ChunkFiles.remove(url)
            stop(&state, because: error)
            return nil
        }
        return PlannedChunk(startSeconds: piece.startSeconds, path: url.path, endSeconds: piece.endSeconds,
                            startsInSpeech: piece.startsInSpeech, timeMap: piece.timeMap.json)
    }

    private func stop(_ state: inout Cutting, because error: any Error) {
        state.broken = true
        logger.warning("live pieces stopped; the rest is planned from the file when the recording ends",
                       metadata: ["job": "\(jobId)", "error": "\(error)"])
    }

    /// Ends the pieces once capture has ended: the thread takes what is left, the last pieces
    /// are queued and the plan closed (`JobQueue.endLivePieces`). Blocking: call it off
    /// the cooperative pool.
    func finish(recording url: URL, durationSeconds: Double) throws -> LivePlanEnding {
        inbox.withLock { $0.closed = true }
        arrived.signal()
        ended.wait()
        return try cutting.withLock { state -> LivePlanEnding in
            if !state.broken, let tail = try? resampler.withLock({ try $0?.process(UnsafeBufferPointer(start: nil, count: 0), endOfInput: true) }) {
                state.map.append(tail)
                state.buffer += tail
            }
            if state.gone { return .gone }
            var last: [PlannedChunk] = []
            if state.queued == 0 {
                // Never cut (a short take): the file goes as it is, as a take without pieces.
            } else if state.broken {
                last = try LiveTail.pieces(of: url, after: state.cursor, jobId: jobId, firstIndex: state.queued,
                                           files: files, cutter: cutter)
            } else {
                for piece in cutter.lastPieces(speech: state.map.speechRanges, cursor: state.cursor,
                                               sampleCount: state.map.sampleCount, sampleRate: ChunkFiles.sampleRate) {
                    guard let planned = encode(piece, index: state.queued + last.count, &state) else {
                        last.forEach { ChunkFiles.remove(path: $0.path) }
                        last = try LiveTail.pieces(of: url, after: state.cursor, jobId: jobId, firstIndex: state.queued,
                                                   files: files, cutter: cutter)
                        break
                    }
                    last.append(planned)
                }
            }
            return try LiveTail.end(jobId: jobId, recordingId: recordingId, lastPieces: last, durationSeconds: durationSeconds, queue: queue)
        }
    }
}
