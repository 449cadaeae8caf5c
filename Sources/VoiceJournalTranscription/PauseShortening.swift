import Foundation

/// How an upload leaves out what no one said: the speech is kept with a little of its own
/// surrounding audio, and every pause longer than `longestWholePauseSeconds` keeps only
/// `edgeSeconds` on each side (so it is heard as a short gap, enough for the model to hear a
/// sentence end) — its middle is cut out. Whisper bills and decodes every second it is sent,
/// and invents words over long stretches of room noise; a `TimeMap` puts the answer's times
/// back on the recording's clock.
package struct PauseShortening: Sendable, Equatable {
    /// A pause up to this long is sent whole: it is part of how the sentence sounds.
    package var longestWholePauseSeconds: Double
    /// Audio kept before and after speech where a pause is cut (a cut pause is twice this).
    package var edgeSeconds: Double
    /// Leaving out less than this in all is not worth an encode: the file goes as it is.
    package var worthSeconds: Double

    package init(longestWholePauseSeconds: Double = 1.0, edgeSeconds: Double = 0.3, worthSeconds: Double = 2.0) {
        self.longestWholePauseSeconds = longestWholePauseSeconds
        self.edgeSeconds = edgeSeconds
        self.worthSeconds = worthSeconds
    }

    /// The pieces of `stretch` an upload of its speech holds (sample ranges in order, not
    /// overlapping, within the stretch). No speech in it: nothing.
    package func pieces(of stretch: Range<Int64>, speech: [Range<Int64>], sampleRate: Int) -> [Range<Int64>] {
        let rate = Double(max(sampleRate, 1))
        let edge = Int64((edgeSeconds * rate).rounded())
        let longestWhole = Int64((longestWholePauseSeconds * rate).rounded())
        let inside = speech.compactMap { range -> Range<Int64>? in
            let clipped = range.clamped(to: stretch)
            return clipped.isEmpty ? nil : clipped
        }
        let joined = Self.joined(inside, longerPausesThan: longestWhole)
        var pieces: [Range<Int64>] = []
        for range in joined {
            let start = max(range.lowerBound - edge, pieces.last?.upperBound ?? stretch.lowerBound, stretch.lowerBound)
            let end = min(range.upperBound + edge, stretch.upperBound)
            if start < end { pieces.append(start..<end) }
        }
        return pieces
    }

    /// Speech ranges (samples or seconds) with the pauses up to `longest` closed: the
    /// stretches a listener hears as one utterance ("five, five"), which is what coverage is
    /// judged on.
    static func joined<T: Comparable & AdditiveArithmetic>(_ speech: [Range<T>], longerPausesThan longest: T) -> [Range<T>] {
        var joined: [Range<T>] = []
        for range in speech {
            if let last = joined.last, range.lowerBound - last.upperBound <= longest {
                joined[joined.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                joined.append(range)
            }
        }
        return joined
    }

    /// Speech in seconds with the pauses the upload keeps whole closed (see `joined`).
    package func utterances(_ speech: [Range<Double>]) -> [Range<Double>] {
        Self.joined(speech, longerPausesThan: longestWholePauseSeconds)
    }

    /// The chunk with the pieces its upload holds and its speech, when leaving out the middle
    /// of its pauses is worth it (else as it was: the whole stretch is sent).
    package func shortened(_ chunk: AudioChunk, speech: [Range<Int64>]) -> AudioChunk {
        var shortened = chunk
        let stretch = chunk.startSample..<max(chunk.startSample, chunk.endSample)
        let rate = Double(max(chunk.sampleRate, 1))
        shortened.speech = Self.joined(speech.compactMap { range in
            let clipped = range.clamped(to: stretch)
            return clipped.isEmpty ? nil : clipped
        }, longerPausesThan: Int64((longestWholePauseSeconds * rate).rounded()))
        let kept = pieces(of: stretch, speech: speech, sampleRate: chunk.sampleRate)
        let keptSamples = kept.reduce(Int64(0)) { $0 + Int64($1.count) }
        let leftOut = Double(Int64(stretch.count) - keptSamples) / Double(max(chunk.sampleRate, 1))
        if !kept.isEmpty && leftOut >= worthSeconds { shortened.pieces = kept }
        return shortened
    }

    /// Seconds an upload of `speech` in a recording of `durationSeconds` would leave out.
    package func leftOutSeconds(durationSeconds: Double, speech: [Range<Double>]) -> Double {
        let rate = 1000
        let kept = pieces(of: 0..<Int64((durationSeconds * Double(rate)).rounded()),
                          speech: speech.map { Int64(($0.lowerBound * Double(rate)).rounded())..<Int64(($0.upperBound * Double(rate)).rounded()) },
                          sampleRate: rate)
        return max(durationSeconds - Double(kept.reduce(Int64(0)) { $0 + Int64($1.count) }) / Double(rate), 0)
    }
}

extension AudioChunk {
    /// The samples its upload holds, in order: its pieces, or the whole stretch.
    package var uploadedRanges: [Range<Int64>] { pieces ?? [startSample..<endSample] }

    /// The map from its upload's clock back to the stretch's own (0 = `startSeconds`).
    package var timeMap: TimeMap {
        let rate = Double(max(sampleRate, 1))
        func span(_ range: Range<Int64>) -> TimeMap.Span {
            TimeMap.Span(start: Double(range.lowerBound - startSample) / rate, end: Double(range.upperBound - startSample) / rate)
        }
        return TimeMap(pieces: uploadedRanges.map(span), speech: (speech ?? []).map(span))
    }
}
