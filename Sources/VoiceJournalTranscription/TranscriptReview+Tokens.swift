import Foundation

/// A segment's text split into words, and its timed words, so the review can take words out
/// of a segment and keep its text, its words and its span consistent.
///
/// The text's words and the timed words line up (`aligned`) when there are as many of each and
/// they compare equal one by one (lowercase, letters and digits only); then whatever is taken
/// out of one is taken out of the other at the same places and the text keeps its punctuation.
/// When they do not line up (OpenAI's word list has no punctuation and may split differently),
/// each is cut on its own, or the text is rebuilt from the words that are left.
struct SegmentTokens {
    let segment: TranscriptionResult.Segment
    /// The text's words as written (split at white space).
    let texts: [Substring]
    /// The timed words; empty when the server gave none.
    let words: [TranscriptionResult.Word]
    /// Whether `texts` and `words` correspond one to one.
    let aligned: Bool

    init(_ segment: TranscriptionResult.Segment) {
        self.segment = segment
        texts = segment.text.split(whereSeparator: \.isWhitespace)
        words = segment.words ?? []
        aligned = !words.isEmpty && words.count == texts.count
            && zip(words, texts).allSatisfy { Self.key($0.word) == Self.key($1) }
    }

    /// How a word is compared: lowercase, letters and digits only ("Home." and "home" match).
    static func key(_ word: some StringProtocol) -> String {
        String(word.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }

    /// The comparable words of a text; empty when it holds no word (only punctuation or space).
    static func keys(_ text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map { key($0) }.filter { !$0.isEmpty }
    }

    /// The white space the text starts with (Whisper's segments start with one space).
    var leadingSpace: String { String(segment.text.prefix { $0.isWhitespace }) }

    /// The segment without the timed words at `wordIndices` (the text follows: by position when
    /// aligned, else rebuilt from the words left), and what was taken out; nil when nothing is.
    func removingWords(_ wordIndices: Set<Int>) -> (kept: TranscriptionResult.Segment, removed: TranscriptionResult.Segment?) {
        guard !wordIndices.isEmpty else { return (segment, nil) }
        if aligned { return removing(texts: wordIndices, words: wordIndices) }
        let left = words.indices.filter { !wordIndices.contains($0) }.map { words[$0] }
        let taken = words.indices.filter { wordIndices.contains($0) }.map { words[$0] }
        var kept = segment
        kept.text = left.isEmpty ? "" : leadingSpace + left.map { $0.word.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        kept.words = left
        if let first = left.first, let last = left.last {
            if wordIndices.contains(0) { kept.start = first.start }
            if wordIndices.contains(words.count - 1) { kept.end = last.end }
        }
        return (kept, part(text: taken.map { $0.word.trimmingCharacters(in: .whitespaces) }.joined(separator: " "),
                           words: taken, textIndices: []))
    }

    /// The segment without the text's words at `textIndices` and the timed words at
    /// `wordIndices`, and what was taken out; nil when nothing is. The span shrinks to the
    /// words left when words at its ends go.
    func removing(texts textIndices: Set<Int>, words wordIndices: Set<Int>) -> (kept: TranscriptionResult.Segment, removed: TranscriptionResult.Segment?) {
        guard !textIndices.isEmpty || !wordIndices.isEmpty else { return (segment, nil) }
        var kept = segment
        let leftTexts = texts.indices.filter { !textIndices.contains($0) }.map { texts[$0] }
        kept.text = leftTexts.isEmpty ? "" : leadingSpace + leftTexts.joined(separator: " ")
        let takenTexts = texts.indices.filter { textIndices.contains($0) }.map { texts[$0] }
        let takenWords = words.indices.filter { wordIndices.contains($0) }.map { words[$0] }
        if segment.words != nil {
            let left = words.indices.filter { !wordIndices.contains($0) }.map { words[$0] }
            kept.words = left
            if let first = left.first, let last = left.last {
                if wordIndices.contains(0) { kept.start = first.start }
                if wordIndices.contains(words.count - 1) { kept.end = last.end }
            }
        }
        let text = takenTexts.isEmpty ? takenWords.map { $0.word.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            : takenTexts.joined(separator: " ")
        return (kept, part(text: text, words: takenWords, textIndices: textIndices))
    }

    /// A left-out part of the segment: its time is its words' time when it has words, else
    /// estimated from where its text lies in the segment's text.
    private func part(text: String, words taken: [TranscriptionResult.Word], textIndices: Set<Int>) -> TranscriptionResult.Segment {
        var removed = segment
        removed.text = leadingSpace + text
        removed.words = segment.words == nil ? nil : taken
        if let first = taken.first, let last = taken.last {
            removed.start = first.start
            removed.end = last.end
        } else if let low = textIndices.min(), let high = textIndices.max(), !texts.isEmpty {
            let span = segment.end - segment.start
            removed.start = segment.start + span * Double(low) / Double(texts.count)
            removed.end = segment.start + span * Double(high + 1) / Double(texts.count)
        }
        return removed
    }
}
