import Foundation

/// Where a recording in progress is cut into pieces for live transcription, decided from the
/// speech found so far (a `SpeechMap` fed with the captured blocks).
///
/// A piece begins `paddingSeconds` before the first speech after the last cut. Once it is
/// `minPieceSeconds` long, the first pause of `pauseSeconds` or more ends it (a piece then
/// ends `paddingSeconds` after its last word, and the pause is not sent); at
/// `maxPieceSeconds` with no such pause it is cut as `ChunkPlanner` cuts a long file: in the
/// longest pause near the end, and only in unbroken speech at the limit. Short pieces come
/// back quickly after the stop; long ones give Whisper the context of whole sentences.
package struct LivePieceCutter: Sendable, Equatable {
    /// No pause cuts a piece shorter than this.
    package var minPieceSeconds: Double
    /// A pause at least this long, after `minPieceSeconds`, ends the piece.
    package var pauseSeconds: Double
    /// A piece with no such pause is cut here.
    package var maxPieceSeconds: Double
    /// Silence kept around the speech of each piece.
    package var paddingSeconds: Double

    package init(minPieceSeconds: Double = 15, pauseSeconds: Double = 0.5, maxPieceSeconds: Double = 30,
                paddingSeconds: Double = 0.25) {
        self.minPieceSeconds = minPieceSeconds
        self.pauseSeconds = pauseSeconds
        self.maxPieceSeconds = maxPieceSeconds
        self.paddingSeconds = paddingSeconds
    }

    /// The planner that cuts a piece too long to wait for a pause, and the rest at the end.
    package var planner: ChunkPlanner {
        ChunkPlanner(maxChunkSeconds: maxPieceSeconds, paddingSeconds: paddingSeconds, preferredPauseSeconds: 0.3)
    }

    /// The next piece of the audio from `cursor` (where the last piece ended) to
    /// `sampleCount`, with `speech` as measured so far (sample ranges in order), or nil while
    /// it is not ready to be cut.
    package func nextPiece(speech: [Range<Int64>], cursor: Int64, sampleCount: Int64, sampleRate: Int) -> AudioChunk? {
        let rate = Double(max(sampleRate, 1))
        func samples(_ seconds: Double) -> Int64 { Int64((seconds * rate).rounded()) }
        let after = speech.compactMap { range -> Range<Int64>? in
            let clipped = range.clamped(to: cursor..<max(sampleCount, cursor))
            return clipped.isEmpty ? nil : clipped
        }
        guard let first = after.first else { return nil }
        let padding = samples(paddingSeconds)
        let start = max(cursor, first.lowerBound - padding)
        // The first pause long enough that begins once the piece is long enough; the silence
        // after the latest speech counts as a pause as soon as it is long enough.
        let pauses = zip(after, after.dropFirst()).map { $0.upperBound..<$1.lowerBound }
            + [after[after.count - 1].upperBound..<sampleCount]
        if let pause = pauses.first(where: {
            $0.lowerBound - start >= samples(minPieceSeconds) && $0.count >= samples(pauseSeconds)
        }) {
            return AudioChunk(startSample: start, endSample: min(pause.lowerBound + padding, pause.upperBound), sampleRate: sampleRate,
                              startsInSpeech: start == cursor && Self.speech(speech, runsAcross: cursor))
        }
        guard sampleCount - start >= samples(maxPieceSeconds) + 2 * padding else { return nil }
        return lastPieces(speech: speech, cursor: cursor, sampleCount: sampleCount, sampleRate: sampleRate).first
    }

    /// The pieces that finish the audio from `cursor` to its end (the recording stopped).
    package func lastPieces(speech: [Range<Int64>], cursor: Int64, sampleCount: Int64, sampleRate: Int) -> [AudioChunk] {
        let after = speech.compactMap { range -> Range<Int64>? in
            let clipped = range.clamped(to: cursor..<max(sampleCount, cursor))
            return clipped.isEmpty ? nil : clipped
        }
        // The first piece after the cursor continues the piece before it: it starts in speech
        // when the speech runs on across the cursor (that piece was cut in unbroken speech).
        let continuesSpeech = Self.speech(speech, runsAcross: cursor)
        return planner.chunks(speech: after, sampleCount: sampleCount, sampleRate: sampleRate).enumerated().map { index, chunk in
            let start = max(chunk.startSample, cursor)
            return AudioChunk(startSample: start, endSample: chunk.endSample, sampleRate: sampleRate,
                              startsInSpeech: index == 0 ? continuesSpeech && start == cursor : chunk.startsInSpeech)
        }
    }

    /// Whether a cut at `sample` went through speech: speech on both sides of it.
    static func speech(_ speech: [Range<Int64>], runsAcross sample: Int64) -> Bool {
        speech.contains { $0.lowerBound < sample && $0.upperBound > sample }
    }
}
