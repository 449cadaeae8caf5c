import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

/// Recordings the API cannot take as they are (too big, too long, a container it refuses, or
/// worth trimming) are measured, then encoded as chunks that become child jobs.
extension Worker {
    /// What preparing a recording's upload decided.
    enum Preparation: Equatable {
        /// Upload the file as it is; `speechHeard` when it was measured and holds speech
        /// (an answer with no text is then suspect), `speech` where (seconds), to review the
        /// answer against.
        case asIs(speechHeard: Bool, speech: [Range<Double>]? = nil)
        /// Nothing more to do here: the job ended, was split into chunks, or went back.
        case handled
    }

    /// Whether the stored row alone says the file goes as it is, without decoding it: a
    /// container the API accepts, within the size and length limits, and short enough
    /// (`UploadSettings.measureAboveSeconds`) that the silence trimming could leave out is
    /// not worth a decode (with `--no-trim`, any length). Everything else is decoded once to
    /// plan its upload.
    func goesAsIsByItsRow(_ recording: Recording) -> Bool {
        let settings = runner.options.upload
        guard recording.durationSeconds > 0,
              !settings.trim || recording.durationSeconds <= UploadSettings.measureAboveSeconds else { return false }
        let plan = UploadPlan.make(
            fileExtension: recording.format, sizeBytes: recording.sizeBytes,
            durationSeconds: recording.durationSeconds, speech: .notMeasured, model: runner.options.transcription.model,
            codec: settings.codec, maxRequestBytes: settings.maxRequestBytes, maxChunkSeconds: settings.maxChunkSeconds,
            trim: settings.trim)
        return plan.decision == .asIs
    }

    /// Prepares a file that goes as it is by its row: a file with no speech at all (digital
    /// silence, a pocket recording of room noise) is not sent, since Whisper answers silence with
    /// invented text, and a file whose pauses are worth leaving out is planned like a long one.
    /// A short file costs a few milliseconds to measure. With `--no-trim` the file is sent
    /// whatever it holds; a file that cannot be measured is sent too (when in doubt, it is speech).
    func prepareShortUpload(of recording: Recording, jobId: Int64) throws -> Preparation {
        guard runner.options.upload.trim else { return .asIs(speechHeard: false) }
        let measured: SpeechMap?
        do {
            measured = try measureSpeech(URL(fileURLWithPath: recording.path), sampleRate: ChunkFiles.sampleRate)
        } catch {
            runner.logger.debug("could not measure speech; sending as it is", metadata: ["job": "\(jobId)", "error": "\(error)"])
            return .asIs(speechHeard: false)
        }
        guard let map = measured else {
            try queue.releaseJob(id: jobId, owner: owner)
            return .handled
        }
        return try plan(recording, jobId: jobId, map: map, sizeBytes: recording.sizeBytes)
    }

    /// Measures the recording's speech, plans its upload, and carries out every plan but
    /// `.asIs`: an empty transcript for silence, chunk files and child jobs otherwise.
    func prepareUpload(of recording: Recording, jobId: Int64) throws -> Preparation {
        let url = URL(fileURLWithPath: recording.path)
        let measured: SpeechMap?
        do {
            measured = try measureSpeech(url, sampleRate: ChunkFiles.sampleRate)
        } catch {
            try fail(jobId: jobId, path: recording.path, message: "\(error)")
            return .handled
        }
        guard let map = measured else {
            try queue.releaseJob(id: jobId, owner: owner)
            return .handled
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64) ?? recording.sizeBytes
        return try plan(recording, jobId: jobId, map: map, sizeBytes: size)
    }

    /// Plans a measured recording's upload and carries out every plan but `.asIs`. With
    /// trimming on, what is sent is the speech: pauses are shortened (`PauseShortening`) unless
    /// that would leave out too little to be worth an encode.
    private func plan(_ recording: Recording, jobId: Int64, map: SpeechMap, sizeBytes: Int64) throws -> Preparation {
        let settings = runner.options.upload
        let shortening = PauseShortening()
        let speech = map.speechIntervals
        let plan = UploadPlan.make(
            fileExtension: recording.format, sizeBytes: sizeBytes, durationSeconds: map.durationSeconds,
            speech: map.speechExtent, model: runner.options.transcription.model, codec: settings.codec,
            maxRequestBytes: settings.maxRequestBytes, maxChunkSeconds: settings.maxChunkSeconds, trim: settings.trim,
            speechOnlyLeavesOut: settings.trim ? shortening.leftOutSeconds(durationSeconds: map.durationSeconds, speech: speech) : nil)
        runner.logger.debug("upload plan", metadata: ["job": "\(jobId)", "plan": "\(plan.decision)", "chunkSeconds": "\(plan.chunkSeconds)"])
        switch plan.decision {
        case .asIs:
            return .asIs(speechHeard: map.speechExtent != .silent, speech: settings.trim ? shortening.utterances(speech) : nil)
        case .nothingToSend:
            runner.logger.info("no speech: nothing uploaded", metadata: ["job": "\(jobId)"])
            try storeSilence(of: recording, jobId: jobId, peakDBFS: map.peakDBFS)
            return .handled
        case .transcode(let codec), .split(let codec):
            var chunks = ChunkPlanner(maxChunkSeconds: plan.chunkSeconds, trim: settings.trim).chunks(for: map)
            guard !chunks.isEmpty else {
                try storeSilence(of: recording, jobId: jobId, peakDBFS: map.peakDBFS)
                return .handled
            }
            if settings.trim {
                let ranges = map.speechRanges
                chunks = chunks.map { shortening.shortened($0, speech: ranges) }
            }
            try split(recording, jobId: jobId, into: chunks, codec: codec, durationSeconds: map.durationSeconds)
            return .handled
        }
    }

    /// Where the file's speech is, streamed at `sampleRate` (nil: the file's own); nil when
    /// the run was told to stop meanwhile.
    private func measureSpeech(_ url: URL, sampleRate: Int?) throws -> SpeechMap? {
        let stream = try MonoPCMStream(url: url, sampleRate: sampleRate)
        var map = SpeechMap(sampleRate: stream.sampleRate)
        while let block = try stream.next() {
            if runner.stopReason != nil { return nil }
            map.append(block)
        }
        return map
    }

    /// A recording with no speech: an empty transcript, nothing uploaded (Whisper answers
    /// silence with invented text). When the audio is not silent either (very quiet speech
    /// measures as none), the user is told, with the way to send it anyway.
    private func storeSilence(of recording: Recording, jobId: Int64, peakDBFS: Double) throws {
        let transcript = Transcript(recordingId: try recording.storedId(), text: "", language: nil,
                                    model: runner.options.transcription.model, segments: [], audioSentSeconds: 0)
        guard try queue.completeJob(id: jobId, owner: owner, transcript: transcript) else { return }
        run.summary.withLock { $0.transcribed += 1 }
        run.onEvent(.transcribed(jobId: jobId, path: recording.path, seconds: 0))
        if let peak = [recording.peakDBFS, peakDBFS].compactMap({ $0 }).max(), peak >= Self.audibleDBFS {
            let message = "no speech heard, nothing uploaded: an empty transcript is stored, but the audio peaks at "
                + String(format: "%.1f", peak) + " dBFS; if it holds quiet speech, send it whole with "
                + "`voicejournal transcribe --again --no-trim FILE`"
            run.summary.withLock { $0.suspects.append(.init(jobId: jobId, path: recording.path, message: message)) }
            run.onEvent(.suspect(jobId: jobId, path: recording.path, message: message))
        }
    }

    /// Audio peaking above this is more than digital silence or a faint hiss: finding no
    /// speech in it is worth a word.
    static let audibleDBFS = -60.0

    /// Encodes the chunks under `<home>/tmp/` and queues them as child jobs of `jobId`.
    private func split(_ recording: Recording, jobId: Int64, into chunks: [AudioChunk], codec: UploadCodec,
                       durationSeconds: Double) throws {
        let files = ChunkFiles(home: queue.home, owner: runner.owner)
        let paths = chunks.indices.map { files.url(jobId: jobId, index: $0, codec: codec) }
        do {
            try files.createFolder()
            try ChunkFiles.encode(URL(fileURLWithPath: recording.path), chunks: chunks, to: paths, codec: codec) {
                runner.stopReason != nil
            }
        } catch is CancellationError {
            // Stopped halfway: the job goes back untouched, to be planned again next run.
            paths.forEach(ChunkFiles.remove)
            try queue.releaseJob(id: jobId, owner: owner)
            return
        } catch {
            paths.forEach(ChunkFiles.remove)
            try fail(jobId: jobId, path: recording.path, message: "could not encode its chunks for upload: \(error)")
            return
        }
        let planned = zip(chunks, paths).map {
            PlannedChunk(startSeconds: $0.startSeconds, path: $1.path, endSeconds: $0.endSeconds, startsInSpeech: $0.startsInSpeech,
                         timeMap: $0.speech == nil ? nil : $0.timeMap.json)
        }
        guard try queue.splitJob(id: jobId, owner: owner, chunks: planned, durationSeconds: durationSeconds) else {
            paths.forEach(ChunkFiles.remove)
            return
        }
        run.onEvent(.chunksDone(jobId: jobId, path: recording.path, done: 0, total: chunks.count))
        runner.logger.info("split for upload", metadata: ["job": "\(jobId)", "chunks": "\(chunks.count)", "codec": "\(codec.rawValue)"])
    }
}
