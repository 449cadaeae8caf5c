import Foundation

/// Where a transcript's words are on its recording's timeline: which segment a place in the
/// text falls in (so a search hit can say `@12:03`), and segments for a corrected text that
/// keep each surviving word at the time it was heard.
public enum TranscriptTimeline {
    /// The start of the segment holding the text's unicode scalar at `offset`; nil without segments.
    public static func segmentStart(atScalarOffset offset: Int, of transcript: Transcript) -> Double? {
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
    public static func realigned(_ segments: [Transcript.Segment], to corrected: String) -> [Transcript.Segment] {
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
            words.isEmpty ? nil : Transcript.Segment(start: segment.start, end: segment.end, text: " " + words.joined(separator: " "))
        }
    }

    private static func words(of text: String) -> [String] {
        text.split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
