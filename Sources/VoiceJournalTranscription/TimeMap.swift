import Foundation

/// Which stretches of a recording one upload holds, one after another, and where its speech
/// is: what turns the times in the server's answer back into the recording's own clock.
///
/// An upload of speech only leaves out the middle of every long pause, so a word the server
/// hears at 14.2 s of the upload may have been said at 31.0 s of the recording. The map is a
/// few numbers per pause: the kept pieces in order, on the clock of the stretch the upload
/// was cut from (a chunk's or live piece's own start is 0; the stitcher shifts the chunks
/// onto the recording), and the speech inside them, which the review checks the answer against.
package struct TimeMap: Sendable, Equatable, Codable {
    /// A stretch in seconds.
    package struct Span: Sendable, Equatable, Codable {
        package var start: Double
        package var end: Double
        package init(start: Double, end: Double) {
            self.start = start
            self.end = max(start, end)
        }
        package var seconds: Double { end - start }
        package var range: Range<Double> { start..<end }
    }

    /// The kept pieces, in order, not overlapping: the upload is these, back to back.
    package var pieces: [Span]
    /// Where speech is, on the same clock, in order (within the pieces).
    package var speech: [Span]

    package init(pieces: [Span], speech: [Span]) {
        self.pieces = pieces
        self.speech = speech
    }

    /// A map of an upload that holds its stretch unshortened, `seconds` long.
    package static func whole(seconds: Double, speech: [Span]) -> TimeMap {
        TimeMap(pieces: [Span(start: 0, end: max(seconds, 0))], speech: speech)
    }

    /// Seconds of audio the upload holds.
    package var sentSeconds: Double { pieces.reduce(0) { $0 + $1.seconds } }

    /// Whether the upload holds its stretch as it is (one piece from 0): times need no mapping.
    package var isWhole: Bool { pieces.count <= 1 && (pieces.first?.start ?? 0) == 0 }

    /// The time on the stretch's clock of `seconds` into the upload. A time exactly at the
    /// seam of two pieces is the end of the earlier one when it ends something (`isEnd`), the
    /// start of the later one otherwise; a time past the upload's end stays past the last piece.
    package func original(_ seconds: Double, isEnd: Bool = false) -> Double {
        var uploadStart = 0.0
        for (index, piece) in pieces.enumerated() {
            let uploadEnd = uploadStart + piece.seconds
            // Sums of piece lengths carry rounding: a seam is a seam within a nanosecond.
            if index == pieces.count - 1 || (isEnd ? seconds <= uploadEnd + 1e-9 : seconds < uploadEnd - 1e-9) {
                return piece.start + (seconds - uploadStart)
            }
            uploadStart = uploadEnd
        }
        return seconds
    }

    /// Where a time on the stretch's clock is in the upload; a time in a left-out pause is
    /// where the pause's kept part joins (the start of the next piece).
    package func upload(_ seconds: Double) -> Double {
        var uploadStart = 0.0
        for piece in pieces {
            if seconds < piece.start { return uploadStart }
            if seconds <= piece.end { return uploadStart + seconds - piece.start }
            uploadStart += piece.seconds
        }
        return uploadStart
    }

    /// The speech stretches as ranges.
    package var speechRanges: [Range<Double>] { speech.map(\.range) }
}

extension TranscriptionResult {
    /// The answer with every segment and word time turned back to the stretch's clock.
    /// A segment that ran across a shortened pause comes back as one segment per side (see
    /// `UploadLayout`), and no word is stretched over the pause.
    package func mapped(through map: TimeMap) -> TranscriptionResult {
        guard !map.isWhole else { return self }
        var result = self
        let layout = UploadLayout(map)
        result.segments = segments.flatMap(layout.placed)
        return result
    }
}

extension TimeMap {
    /// A span of the upload on the stretch's clock. A span that runs across a shortened pause
    /// without reaching speech on its far side (the model let a segment or word run on into
    /// the gap) stops where its speech's piece ends, rather than taking in the whole pause it
    /// never heard; likewise a span starting after its piece's speech starts at the next piece.
    package func originalSpan(_ start: Double, _ end: Double) -> Range<Double> {
        var from = original(start), to = max(original(end, isEnd: true), from)
        guard pieces.count > 1, var first = pieceIndex(of: from), var last = pieceIndex(of: to) else { return from..<to }
        while last > first, !speech.contains(where: { $0.start < to && $0.end > pieces[last].start }) {
            last -= 1
            to = pieces[last].end
        }
        while first < last, !speech.contains(where: { $0.end > from && $0.start < pieces[first].end }) {
            first += 1
            from = pieces[first].start
        }
        return from..<max(to, from)
    }

    /// The piece a time on the stretch's clock lies in (the nearest before it in a cut pause).
    private func pieceIndex(of seconds: Double) -> Int? {
        pieces.lastIndex { $0.start <= seconds + 1e-9 } ?? (pieces.isEmpty ? nil : 0)
    }
}

extension TranscriptionResult.Segment {
    /// The segment on the stretch's clock: one segment per side of each shortened pause its
    /// words (or, without words, its speech) lie on, every word within one stretch.
    package func mapped(through map: TimeMap) -> [TranscriptionResult.Segment] {
        map.isWhole ? [self] : UploadLayout(map).placed(self)
    }

    /// The segment moved `seconds` later (or earlier, negative), words too.
    package func shifted(by seconds: Double) -> TranscriptionResult.Segment {
        var segment = self
        segment.start += seconds
        segment.end += seconds
        segment.words = words?.map { .init(start: $0.start + seconds, end: $0.end + seconds, word: $0.word) }
        return segment
    }
}

extension TimeMap {
    /// The map as a chunk's row keeps it.
    package var json: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A map a chunk's row kept; nil when there is none or it cannot be read.
    package init?(json: String?) {
        guard let json, let map = try? JSONDecoder().decode(TimeMap.self, from: Data(json.utf8)) else { return nil }
        self = map
    }
}
