import Foundation

/// The pieces of an upload on its own clock, with the speech inside each: what putting an
/// answer's words and segments back on the recording's clock needs.
///
/// A shortened pause is a seam in the upload where a few tenths of a second stand for many
/// seconds of the recording. The model does not know: it may start a segment in the tail of
/// one utterance and end it in the next, or stretch a word over the seam. Mapped as one span,
/// such a word becomes nine seconds long and a search hit jumps into the silence before it.
/// So every word belongs to one piece (the one holding more of its speech, else more of its
/// duration) and is clamped to it, and a segment whose words lie in pieces a cut pause
/// separates becomes one segment per piece.
struct UploadLayout {
    let map: TimeMap
    /// Where each piece starts on the upload's clock.
    private let uploadStarts: [Double]
    /// The speech inside each piece, on the upload's clock.
    private let speech: [[Range<Double>]]

    init(_ map: TimeMap) {
        self.map = map
        var starts: [Double] = []
        var at = 0.0
        for piece in map.pieces {
            starts.append(at)
            at += piece.seconds
        }
        uploadStarts = starts
        speech = zip(map.pieces, starts).map { piece, start in
            map.speech.compactMap { span -> Range<Double>? in
                let from = max(span.start, piece.start), to = min(span.end, piece.end)
                return from < to ? (start + from - piece.start)..<(start + to - piece.start) : nil
            }
        }
    }

    /// The upload's clock range of piece `index`.
    func upload(_ index: Int) -> ClosedRange<Double> {
        uploadStarts[index]...(uploadStarts[index] + map.pieces[index].seconds)
    }

    /// The time on the stretch's clock of `seconds` into the upload, taken as part of piece `index`.
    func original(_ seconds: Double, in index: Int) -> Double {
        let range = upload(index)
        return map.pieces[index].start + (min(max(seconds, range.lowerBound), range.upperBound) - range.lowerBound)
    }

    /// The piece holding `seconds` of the upload; a seam belongs to the later piece, or to
    /// the earlier one for the end of something (`isEnd`). Before the upload: the first;
    /// after it: the last.
    func piece(at seconds: Double, isEnd: Bool = false) -> Int {
        // Sums of piece lengths carry rounding: a seam is a seam within a nanosecond.
        var low = 0, high = uploadStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if isEnd ? uploadStarts[middle] < seconds - 1e-9 : uploadStarts[middle] <= seconds + 1e-9 {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    /// Whether a cut pause lies between pieces `first` and `last` (a seam where the
    /// recording's audio was left out, not two pieces that meet).
    func cut(between first: Int, and last: Int) -> Bool {
        guard first != last else { return false }
        let (low, high) = (min(first, last), max(first, last))
        return (low..<high).contains { map.pieces[$0 + 1].start > map.pieces[$0].end + 1e-6 }
    }

    /// Seconds of speech in piece `index` within `range` of the upload.
    func speechSeconds(in range: Range<Double>, piece index: Int) -> Double {
        speech[index].reduce(0) { $0 + max(0, min($1.upperBound, range.upperBound) - max($1.lowerBound, range.lowerBound)) }
    }

    /// The first speech of piece `index` that ends after `seconds` (upload clock), if any.
    func speechStart(after seconds: Double, piece index: Int) -> Double? {
        speech[index].first { $0.upperBound > seconds }.map { max($0.lowerBound, seconds) }
    }

    /// The last speech of piece `index` that starts before `seconds` (upload clock), if any.
    func speechEnd(before seconds: Double, piece index: Int) -> Double? {
        speech[index].last { $0.lowerBound < seconds }.map { min($0.upperBound, seconds) }
    }

    /// The piece a span of the upload belongs to: of the pieces it reaches, the one holding
    /// most of its speech, else most of its time.
    func owner(of start: Double, _ end: Double) -> Int {
        let first = piece(at: start), last = max(piece(at: end, isEnd: true), first)
        guard first < last else { return first }
        let span = start..<max(end, start)
        let candidates = Array(first...last)
        let bySpeech = candidates.map { speechSeconds(in: span, piece: $0) }
        if let most = bySpeech.max(), most > 0 { return candidates[bySpeech.firstIndex(of: most) ?? 0] }
        let byTime = candidates.map { index in
            let range = upload(index)
            return max(0, min(span.upperBound, range.upperBound) - max(span.lowerBound, range.lowerBound))
        }
        return candidates[byTime.firstIndex(of: byTime.max() ?? 0) ?? 0]
    }

    /// A span of the upload inside piece `index`, on the stretch's clock: an edge the piece
    /// cut off moves to the piece's speech (the word starts where the voice does, not in the
    /// kept edge of the pause before it).
    func placed(_ start: Double, _ end: Double, in index: Int) -> Range<Double> {
        let range = upload(index)
        var from = min(max(start, range.lowerBound), range.upperBound)
        var to = min(max(end, from), range.upperBound)
        if start < range.lowerBound, let voice = speechStart(after: from, piece: index), voice < to { from = voice }
        if end > range.upperBound, let voice = speechEnd(before: to, piece: index), voice > from { to = voice }
        return original(from, in: index)..<original(to, in: index)
    }
}

extension UploadLayout {
    /// A segment of the answer (upload clock) as segments on the stretch's clock: one per
    /// piece its words lie in, with each word clamped to its piece. Without words, a segment
    /// reaching speech in several pieces is cut by the speech in each, its text shared in
    /// proportion to it; one reaching speech in one piece (or none) stays whole, trimmed to
    /// the pieces it reaches speech in.
    func placed(_ segment: TranscriptionResult.Segment) -> [TranscriptionResult.Segment] {
        if let words = segment.words, !words.isEmpty { return placed(segment, words: words) }
        return placedWithoutWords(segment)
    }

    private func placed(_ segment: TranscriptionResult.Segment, words: [TranscriptionResult.Word]) -> [TranscriptionResult.Segment] {
        var owners = words.map { owner(of: $0.start, $0.end) }
        let voiced = words.indices.map { speechSeconds(in: words[$0].start..<max(words[$0].end, words[$0].start), piece: owners[$0]) > 0 }
        // The words between cut pauses, in order: [first, last) word indices each.
        func groups() -> [Range<Int>] {
            let seams = owners.indices.dropFirst().filter { cut(between: owners[$0 - 1], and: owners[$0]) }
            let bounds = [0] + seams + [words.count]
            return (0..<(bounds.count - 1)).map { bounds[$0]..<bounds[$0 + 1] }
        }
        // Words over nothing but a pause's kept edge at the start (or end) of a segment whose
        // next (or previous) words are in speech across the cut are the model running the
        // sentence's first (or last) words over the seam: they go with the sentence.
        var movedToStart = Set<Int>(), movedToEnd = Set<Int>()
        var spans = groups()
        if spans.count > 1, !voiced[spans[0]].contains(true), voiced[spans[1]].contains(true) {
            for index in spans[0] { owners[index] = owners[spans[1].lowerBound]; movedToStart.insert(index) }
            spans = groups()
        }
        if spans.count > 1, !voiced[spans[spans.count - 1]].contains(true), voiced[spans[spans.count - 2]].contains(true) {
            for index in spans[spans.count - 1] { owners[index] = owners[spans[spans.count - 2].lowerBound]; movedToEnd.insert(index) }
            spans = groups()
        }
        var placedWords = words.indices.map { index in
            let span = placed(words[index].start, words[index].end, in: owners[index])
            return TranscriptionResult.Word(start: span.lowerBound, end: span.upperBound, word: words[index].word)
        }
        // Words carried over a cut follow one another from where their piece's voice starts
        // (or up to where it ends), each as long as it was (a second at most).
        func length(_ index: Int) -> Double { min(max(words[index].end - words[index].start, 0), 1) }
        if let owner = movedToStart.first.map({ owners[$0] }), let voice = speechStart(after: upload(owner).lowerBound, piece: owner) {
            var at = original(voice, in: owner)
            for index in movedToStart.sorted() {
                placedWords[index] = .init(start: at, end: at + length(index), word: words[index].word)
                at += length(index)
            }
        }
        if let owner = movedToEnd.first.map({ owners[$0] }), let voice = speechEnd(before: upload(owner).upperBound, piece: owner) {
            var at = original(voice, in: owner)
            for index in movedToEnd.sorted().reversed() {
                placedWords[index] = .init(start: at - length(index), end: at, word: words[index].word)
                at -= length(index)
            }
        }
        var moved = segment
        moved.words = placedWords
        // Cut where a shortened pause lies between two words, unless no word on either side
        // touches speech: words over nothing but the pause's kept edges ("Thanks for watching!"
        // across the seam) stay one segment for the review to judge as a whole.
        let cuts = spans.indices.dropFirst().filter { voiced[spans[$0 - 1]].contains(true) || voiced[spans[$0]].contains(true) }
            .map { spans[$0].lowerBound }
        var parts = moved.parts(beforeWords: cuts)
        // The first part starts, and the last ends, where the segment did when that lies in
        // the piece of its words; a start or end in another piece was the model running over
        // the seam, and the words' own time is the better guess.
        if let first = parts.first?.words?.first, let firstOwner = owners.first {
            let range = upload(firstOwner)
            parts[0].start = range.contains(segment.start) ? min(original(segment.start, in: firstOwner), first.start) : first.start
        }
        if let last = parts.last?.words?.last, let lastOwner = owners.last {
            let range = upload(lastOwner)
            let end = range.contains(segment.end) ? max(original(segment.end, in: lastOwner), last.end) : last.end
            parts[parts.count - 1].end = max(end, parts[parts.count - 1].start)
        }
        return parts
    }

    /// Less speech than this on one side of a cut, in a segment without words, is not given
    /// words of its own: about one short word.
    static let shortestSpokenSeconds = 0.5

    private func placedWithoutWords(_ segment: TranscriptionResult.Segment) -> [TranscriptionResult.Segment] {
        let span = segment.start..<max(segment.end, segment.start)
        let first = piece(at: span.lowerBound), last = max(piece(at: span.upperBound, isEnd: true), first)
        // A side with less speech than a word is the model's start or end running over the
        // seam, not words of their own (unless no side has more).
        let speechByPiece = (first...last).map { ($0, speechSeconds(in: span, piece: $0)) }
        let most = speechByPiece.map(\.1).max() ?? 0
        let reached = speechByPiece.filter { $0.1 > 0 && $0.1 >= min(Self.shortestSpokenSeconds, most) }.map(\.0)
        guard !reached.isEmpty else {
            var whole = segment
            let placed = map.originalSpan(span.lowerBound, span.upperBound)
            (whole.start, whole.end) = (placed.lowerBound, placed.upperBound)
            return [whole]
        }
        // Pieces apart by a cut get text of their own; pieces that meet share one part.
        var groups: [[Int]] = []
        for index in reached {
            if let previous = groups.last?.last, !cut(between: previous, and: index) {
                groups[groups.count - 1].append(index)
            } else {
                groups.append([index])
            }
        }
        let texts = segment.textParts(inProportionTo: groups.map { $0.reduce(0) { $0 + speechSeconds(in: span, piece: $1) } })
        var parts: [TranscriptionResult.Segment] = []
        for (group, text) in zip(groups, texts) {
            guard let text, let low = group.first, let high = group.last else { continue }
            var part = segment
            part.text = text
            // An edge inside the piece is the model's; one at a cut starts or ends with the voice.
            let from = upload(low).contains(span.lowerBound) ? span.lowerBound : (speechStart(after: upload(low).lowerBound, piece: low) ?? upload(low).lowerBound)
            let to = upload(high).contains(span.upperBound) ? span.upperBound : (speechEnd(before: upload(high).upperBound, piece: high) ?? upload(high).upperBound)
            part.start = original(from, in: low)
            part.end = max(original(to, in: high), part.start)
            parts.append(part)
        }
        return parts
    }
}
