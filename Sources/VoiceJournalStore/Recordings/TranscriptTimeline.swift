import Foundation

/// Where a transcript's words are on its recording's timeline: which segment a place in the
/// text falls in (so a search hit can say `@12:03`), and segments for a corrected text that
/// keep each surviving word at the time it was heard.
package enum TranscriptTimeline {
    /// The start of the segment holding the text's unicode scalar at `offset`; nil without segments.
    package static func segmentStart(atScalarOffset offset: Int, of transcript: Transcript) -> Double? {
        segmentStart(atScalarOffset: offset, text: transcript.text, segments: transcript.segments)
    }

    /// The same for a transcript's text and segments read on their own.
    static func segmentStart(atScalarOffset offset: Int, text: String, segments: [Transcript.Segment]) -> Double? {
        let ranges = scalarRanges(of: segments, in: text)
        guard !ranges.isEmpty else { return nil }
        // The last segment starting at or before the offset (a match between two is in the earlier).
        let index = ranges.lastIndex { $0.lowerBound <= offset } ?? 0
        return segments[index].start
    }

    /// Each segment's place in `text` as scalar offsets, found in order; a segment whose
    /// words are not found (text edited by hand) starts where the previous one ended.
    static func scalarRanges(of segments: [Transcript.Segment], in text: String) -> [Range<Int>] {
        let scalars = Array(text.unicodeScalars)
        var cursor = 0
        return segments.map { segment in
            let needle = Array(segment.text.trimmingCharacters(in: .whitespacesAndNewlines).unicodeScalars)
            guard !needle.isEmpty, let start = firstIndex(of: needle, in: scalars, from: cursor) else {
                return cursor..<cursor
            }
            cursor = start + needle.count
            return start..<cursor
        }
    }

    private static func firstIndex(of needle: [Unicode.Scalar], in haystack: [Unicode.Scalar], from start: Int) -> Int? {
        guard needle.count <= haystack.count - start else { return nil }
        // Compared in place: a segment missing from an edited text costs one pass, no copies.
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    /// Segments for `corrected`, a new text of a transcript with `segments`: the words are
    /// compared (Myers' difference), each word kept or changed stays in its segment, and an
    /// inserted word joins the segment of the word before it (or the first segment). Segments
    /// left with no words are dropped. With no segments there is nothing to keep: empty.
    package static func realigned(_ segments: [Transcript.Segment], to corrected: String) -> [Transcript.Segment] {
        guard !segments.isEmpty else { return [] }
        // The old words, each with the index of its segment.
        var oldWords: [String] = []
        var oldSegment: [Int] = []
        for (index, segment) in segments.enumerated() {
            for word in words(of: segment.text) {
                oldWords.append(word.lowercased())
                oldSegment.append(index)
            }
        }
        let newWords = words(of: corrected)
        let difference = newWords.map { $0.lowercased() }.difference(from: oldWords)
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in difference {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        // Walk both lists: unchanged words pair up in order; a replaced word (removed where a
        // new one is inserted) takes the removed one's segment.
        var assigned: [Int] = []
        var old = 0
        var current = oldSegment.first ?? 0
        for index in newWords.indices {
            if inserted.contains(index) {
                if old < oldWords.count, removed.contains(old) {
                    current = oldSegment[old]
                    old += 1
                }
                assigned.append(current)
                continue
            }
            while old < oldWords.count, removed.contains(old) { old += 1 }
            if old < oldSegment.count { current = oldSegment[old] }
            assigned.append(current)
            old += 1
        }
        var texts = [[String]](repeating: [], count: segments.count)
        for (word, segment) in zip(newWords, assigned) { texts[segment].append(word) }
        return zip(segments, texts).compactMap { segment, words in
            words.isEmpty ? nil : Self.corrected(segment, to: " " + words.joined(separator: " "))
        }
    }

    /// `segment` with its text replaced by `text` (a correction), at the same time. Its
    /// confidence stays only while its words do: a segment whose words are unchanged (case,
    /// punctuation and spacing aside) keeps `avgLogprob`, `noSpeechProb` and its timed
    /// words; one whose words changed is now the user's, not the model's guess, so it loses
    /// the model's confidence (and with it the low-confidence mark), and its `words` keep a
    /// time only for the words still there: a kept word keeps its time, a word replaced one
    /// for one takes the time of the word it replaces (a misheard name put right), and a
    /// word the correction added has no time and is not listed.
    package static func corrected(_ segment: Transcript.Segment, to text: String) -> Transcript.Segment {
        let newWords = words(of: text)
        let oldKeys = words(of: segment.text).map(key)
        let newKeys = newWords.map(key)
        var result = segment
        result.text = text
        guard oldKeys != newKeys else { return result }
        result.avgLogprob = nil
        result.noSpeechProb = nil
        guard let timed = segment.words else { return result }
        let timedKeys = timed.map { key($0.word) }
        var removed = Set<Int>()
        var inserted = Set<Int>()
        for change in newKeys.difference(from: timedKeys) {
            switch change {
            case .remove(let offset, _, _): removed.insert(offset)
            case .insert(let offset, _, _): inserted.insert(offset)
            }
        }
        var kept: [Transcript.Word] = []
        var old = 0
        for (index, word) in newWords.enumerated() {
            if inserted.contains(index) {
                // A word in place of a removed one takes its time; one only added has none.
                if old < timed.count, removed.contains(old) {
                    kept.append(Transcript.Word(start: timed[old].start, end: timed[old].end, word: " " + word))
                    old += 1
                }
                continue
            }
            while old < timed.count, removed.contains(old) { old += 1 }
            if old < timed.count { kept.append(Transcript.Word(start: timed[old].start, end: timed[old].end, word: " " + word)) }
            old += 1
        }
        result.words = kept.isEmpty ? nil : kept
        return result
    }

    /// A word as corrections compare it: lower case, without the punctuation around it.
    private static func key(_ word: String) -> String {
        word.trimmingCharacters(in: CharacterSet.punctuationCharacters.union(.whitespacesAndNewlines)).lowercased()
    }

    private static func words(of text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}

extension TranscriptTimeline {
    /// `text` with each mark put in its place in time: before the first segment (found in
    /// the text, as `scalarRanges` finds them) that starts at or after the mark, else at the
    /// end; the text itself is left as it is. Without segments (or a place to find) every
    /// mark goes at the end, in time order. Marks and words are separated by one space, or
    /// by the line break already there.
    package static func inserting(_ marks: [(at: Double, text: String)], into text: String,
                                 segments: [Transcript.Segment]) -> String {
        guard !marks.isEmpty else { return text }
        let ordered = marks.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        let ranges = scalarRanges(of: segments, in: text)
        var scalars = Array(text.unicodeScalars)
        // From the last place to the first, so the offsets found stay true.
        var places: [(offset: Int, text: String)] = ordered.map { mark in
            let index = segments.indices.first { segments[$0].start >= mark.at && !ranges[$0].isEmpty }
            return (index.map { ranges[$0].lowerBound } ?? scalars.count, mark.text)
        }
        // Several marks at one place keep their time order.
        places = places.enumerated().sorted { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }.map(\.element)
        for place in places {
            var piece = Array(place.text.unicodeScalars)
            let before = place.offset > 0 ? scalars[place.offset - 1] : nil
            let after = place.offset < scalars.count ? scalars[place.offset] : nil
            if let before, !before.properties.isWhitespace { piece.insert(" ", at: 0) }
            if let after, !after.properties.isWhitespace { piece.append(" ") }
            scalars.insert(contentsOf: piece, at: place.offset)
        }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }
}
