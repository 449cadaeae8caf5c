import Foundation

extension TranscriptionResult.Segment {
    /// The segment cut before each of `wordIndices` (indices into `words`, in order): each part
    /// holds its words, the stretch of text they are in (punctuation kept with the word before
    /// it) and the segment's confidence; the first part keeps the segment's start, the last its
    /// end, and the times between are the words' own. Indices that cut nothing are ignored;
    /// without words the segment comes back whole.
    package func parts(beforeWords wordIndices: [Int]) -> [TranscriptionResult.Segment] {
        guard let words, !words.isEmpty else { return [self] }
        let cuts = Self.orderedCuts(wordIndices, count: words.count)
        guard !cuts.isEmpty else { return [self] }
        let bounds = [0] + cuts + [words.count]
        let texts = textParts(beforeWords: cuts, of: words)
        return (0..<(bounds.count - 1)).map { index in
            let group = Array(words[bounds[index]..<bounds[index + 1]])
            var part = self
            part.words = group
            part.text = texts[index]
            part.start = index == 0 ? start : group[0].start
            part.end = index == bounds.count - 2 ? end : group[group.count - 1].end
            return part
        }
    }

    /// The segment's text cut into `shares.count` parts by its whitespace-separated tokens, in
    /// proportion to `shares` (seconds of speech each part holds), for a segment without
    /// words; a part given no token is nil.
    package func textParts(inProportionTo shares: [Double]) -> [String?] {
        let tokens = text.split(whereSeparator: \.isWhitespace)
        let total = shares.reduce(0, +)
        guard shares.count > 1, total > 0, !tokens.isEmpty else { return [text] + Array(repeating: nil, count: max(shares.count - 1, 0)) }
        var parts: [String?] = []
        var taken = 0, cumulative = 0.0
        for share in shares {
            cumulative += share
            let upTo = min(tokens.count, Int((Double(tokens.count) * cumulative / total).rounded()))
            parts.append(upTo > taken ? leadingSpace + tokens[taken..<upTo].joined(separator: " ") : nil)
            taken = max(taken, upTo)
        }
        return parts
    }

    /// Whisper starts a segment's text with a space: parts keep the original's habit.
    private var leadingSpace: String { text.first?.isWhitespace == true ? " " : "" }

    private static func orderedCuts(_ indices: [Int], count: Int) -> [Int] {
        var cuts: [Int] = []
        for index in indices.sorted() where index > (cuts.last ?? 0) && index < count { cuts.append(index) }
        return cuts
    }

    /// The text cut where each cut word begins: every word is found in the text in order
    /// (case aside, the punctuation around a word aside), so the text's own spelling and
    /// punctuation survive; when a word cannot be found (a server whose words and text
    /// disagree), each part is its words' own text.
    private func textParts(beforeWords cuts: [Int], of words: [TranscriptionResult.Word]) -> [String] {
        var offsets: [String.Index] = []
        var cursor = text.startIndex
        var cutIndex = 0
        for (index, word) in words.enumerated() {
            let needle = word.word.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters))
            guard !needle.isEmpty else { continue }
            guard let found = text.range(of: needle, options: .caseInsensitive, range: cursor..<text.endIndex) else {
                return Self.wordTexts(words, cuts: cuts, leadingSpace: leadingSpace)
            }
            while cutIndex < cuts.count, cuts[cutIndex] <= index {
                offsets.append(found.lowerBound)
                cutIndex += 1
            }
            cursor = found.upperBound
        }
        // Cut words with nothing to find (punctuation only) cut where the text has got to.
        while offsets.count < cuts.count { offsets.append(cursor) }
        let bounds = [text.startIndex] + offsets + [text.endIndex]
        return (0..<(bounds.count - 1)).map { index in
            let piece = text[bounds[index]..<bounds[index + 1]].trimmingCharacters(in: .whitespacesAndNewlines)
            return piece.isEmpty ? "" : leadingSpace + piece
        }
    }

    private static func wordTexts(_ words: [TranscriptionResult.Word], cuts: [Int], leadingSpace: String) -> [String] {
        // Words that carry their own spaces (faster-whisper's " two") are joined as they are.
        let spaced = words.contains { $0.word.first?.isWhitespace == true }
        let bounds = [0] + cuts + [words.count]
        return (0..<(bounds.count - 1)).map { index in
            let group = words[bounds[index]..<bounds[index + 1]].map(\.word)
            let joined = spaced ? group.joined() : group.joined(separator: " ")
            return leadingSpace + joined.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }
}
