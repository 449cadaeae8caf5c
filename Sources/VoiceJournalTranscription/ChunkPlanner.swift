import Foundation

/// One stretch of a recording to upload on its own, on the recording's original timeline.
package struct AudioChunk: Sendable, Equatable, Codable {
    /// First sample of the stretch (at `sampleRate`).
    package var startSample: Int64
    /// The sample just after the stretch.
    package var endSample: Int64
    /// Samples per second that the sample numbers count.
    package var sampleRate: Int
    /// The cut before this stretch went through unbroken speech, so the word at the seam may
    /// be heard at the end of the stretch before and again at the start of this one. False
    /// for a cut in a pause (and for the first stretch): nothing there is heard twice, and
    /// words repeated across it were spoken twice.
    package var startsInSpeech: Bool
    /// The parts of the stretch its upload holds, back to back (sample ranges on the
    /// recording's clock, in order): the speech with the middle of its long pauses left out
    /// (see `PauseShortening`). Nil: the whole stretch.
    package var pieces: [Range<Int64>]?
    /// Where the stretch's speech is (sample ranges on the recording's clock), when measured.
    package var speech: [Range<Int64>]?

    package init(startSample: Int64, endSample: Int64, sampleRate: Int, startsInSpeech: Bool = false,
                pieces: [Range<Int64>]? = nil, speech: [Range<Int64>]? = nil) {
        self.startSample = startSample
        self.endSample = endSample
        self.sampleRate = sampleRate
        self.startsInSpeech = startsInSpeech
        self.pieces = pieces
        self.speech = speech
    }

    /// Where the stretch starts, in seconds from the start of the recording: the offset its
    /// transcript's timestamps are shifted by.
    package var startSeconds: Double { Double(startSample) / Double(max(sampleRate, 1)) }
    /// Where the stretch ends, in seconds from the start of the recording.
    package var endSeconds: Double { Double(endSample) / Double(max(sampleRate, 1)) }
    /// How long the stretch is, in seconds.
    package var durationSeconds: Double { endSeconds - startSeconds }
}

/// Splits a recording into chunks short enough for one request each, cutting in pauses.
///
/// Each cut goes in the longest pause inside a window before the length limit (the last
/// `cutWindowFraction` of `maxChunkSeconds`), in the middle of that pause. A pause of at least
/// `preferredPauseSeconds` is always chosen when there is one, even earlier in the chunk (a
/// shorter chunk beats a cut between two words); then any pause; and only a chunk of unbroken
/// speech is cut hard at the limit. With `trim`, the silence before the first
/// speech, after the last, and on both sides of each cut is left out but for `paddingSeconds`
/// around the speech, and a pause of `skippedPauseSeconds` or more is never sent. A chunk with
/// no speech in it is never planned: silence sent to Whisper comes back as invented text.
package struct ChunkPlanner: Sendable, Equatable {
    /// The longest chunk.
    package var maxChunkSeconds: Double
    /// No cut leaves a piece shorter than this behind it or before the end: a short piece
    /// costs a request and gives the model little context.
    package var minChunkSeconds: Double
    /// Leave out silence before, after and between the speech (`--no-trim` turns it off).
    package var trim: Bool
    /// Silence kept around speech when trimming, so the edges of words are not clipped.
    package var paddingSeconds: Double
    /// The share of `maxChunkSeconds`, at its end, in which a cut is looked for.
    package var cutWindowFraction: Double
    /// A pause at least this long is a safe place to cut between words.
    package var preferredPauseSeconds: Double
    /// With `trim`, a pause this long ends a chunk and is not sent.
    package var skippedPauseSeconds: Double

    package init(maxChunkSeconds: Double, minChunkSeconds: Double = 2, trim: Bool = true,
                paddingSeconds: Double = 0.25, cutWindowFraction: Double = 0.35,
                preferredPauseSeconds: Double = 0.3, skippedPauseSeconds: Double = 30) {
        self.maxChunkSeconds = maxChunkSeconds
        self.minChunkSeconds = minChunkSeconds
        self.trim = trim
        self.paddingSeconds = paddingSeconds
        self.cutWindowFraction = cutWindowFraction
        self.preferredPauseSeconds = preferredPauseSeconds
        self.skippedPauseSeconds = skippedPauseSeconds
    }

    /// The chunks of a measured recording, in order, not overlapping.
    package func chunks(for map: SpeechMap) -> [AudioChunk] {
        chunks(speech: map.speechRanges, sampleCount: map.sampleCount, sampleRate: map.sampleRate)
    }

    /// The chunks of a recording of `sampleCount` samples whose speech lies in `speech`
    /// (sample ranges in order, not overlapping), in order, not overlapping.
    package func chunks(speech: [Range<Int64>], sampleCount: Int64, sampleRate: Int) -> [AudioChunk] {
        let timeline = Timeline(
            speech: speech.compactMap { range in
                let clipped = range.clamped(to: 0..<max(sampleCount, 0))
                return clipped.isEmpty ? nil : clipped
            },
            sampleRate: max(sampleRate, 1))
        guard !timeline.speech.isEmpty else { return [] }
        // At least a tenth of a second (the API's shortest audio), so planning always moves on.
        let maxLength = max(timeline.samples(maxChunkSeconds), max(Int64(sampleRate / 10), 1))
        let lengths = Lengths(
            max: maxLength,
            min: min(max(timeline.samples(minChunkSeconds), 0), maxLength / 2),
            padding: trim ? max(timeline.samples(paddingSeconds), 0) : 0,
            windowStart: Int64(Double(maxLength) * (1 - min(max(cutWindowFraction, 0), 1))),
            preferredPause: timeline.samples(preferredPauseSeconds))

        var planned: [AudioChunk] = []
        for region in regions(timeline, sampleCount: sampleCount, padding: lengths.padding) {
            planned += chunks(in: region, timeline: timeline, lengths: lengths)
        }
        return planned
    }

    /// Sample counts of the planner's lengths at the recording's rate.
    private struct Lengths {
        let max: Int64
        let min: Int64
        let padding: Int64
        /// Where the cut window begins, counted from the chunk's start.
        let windowStart: Int64
        let preferredPause: Int64
    }

    /// The stretches that are chunked on their own: with `trim`, the speech between pauses
    /// too long to send, padded; without, the whole recording.
    private func regions(_ timeline: Timeline, sampleCount: Int64, padding: Int64) -> [Range<Int64>] {
        guard trim else { return [0..<sampleCount] }
        let longPause = max(timeline.samples(skippedPauseSeconds), 2 * padding + 1)
        var regions: [Range<Int64>] = []
        var start = timeline.speech[0].lowerBound
        for (previous, next) in zip(timeline.speech, timeline.speech.dropFirst())
        where next.lowerBound - previous.upperBound >= longPause {
            regions.append(start..<previous.upperBound)
            start = next.lowerBound
        }
        regions.append(start..<timeline.speech[timeline.speech.count - 1].upperBound)
        return regions.map { max($0.lowerBound - padding, 0)..<min($0.upperBound + padding, sampleCount) }
    }

    private func chunks(in region: Range<Int64>, timeline: Timeline, lengths: Lengths) -> [AudioChunk] {
        var planned: [AudioChunk] = []
        // Whether the cut that ends the previous chunk went through speech.
        var cutInSpeech = false
        func emit(_ start: Int64, _ end: Int64) {
            if timeline.hasSpeech(in: start..<max(start, end)) {
                planned.append(AudioChunk(startSample: start, endSample: end, sampleRate: timeline.sampleRate,
                                          startsInSpeech: cutInSpeech && !planned.isEmpty))
            }
        }
        var cursor = region.lowerBound
        while region.upperBound - cursor > lengths.max {
            let windowEnd = max(min(cursor + lengths.max, region.upperBound - lengths.min), cursor + lengths.windowStart)
            let windowStart = min(cursor + max(lengths.windowStart, lengths.min), windowEnd)
            // Past the cursor whatever the settings, so planning always moves on.
            let cut = max(timeline.cut(in: windowStart..<windowEnd,
                                       fallback: min(cursor + lengths.min, windowStart)..<windowStart,
                                       preferredPause: lengths.preferredPause), cursor + 1)
            guard trim else {
                emit(cursor, cut)
                cutInSpeech = timeline.isInsideSpeech(cut)
                cursor = cut
                continue
            }
            emit(cursor, timeline.speechEnd(before: cut, padding: lengths.padding))
            cutInSpeech = timeline.isInsideSpeech(cut)
            guard let next = timeline.speechStart(after: cut, padding: lengths.padding),
                  next < region.upperBound else { return planned }
            cursor = next
        }
        emit(cursor, region.upperBound)
        return planned
    }
}
