import Foundation
import VoiceJournalStore

/// One sentence of an entry, numbered from 1 as the model sees it, with where it was said
/// when the transcript has word timings.
public struct EntrySentence: Sendable, Equatable, Codable {
    public var number: Int
    public var text: String
    /// Seconds from the start of the recording: its first word's start and last word's end
    /// (a segment's bounds when the server gave no words); nil for typed text.
    public var start: Double?
    public var end: Double?

    public init(number: Int, text: String, start: Double? = nil, end: Double? = nil) {
        self.number = number
        self.text = text
        self.start = start
        self.end = end
    }
}

/// An entry's words cut into numbered sentences: a model cites a sentence by its number and
/// the journal shows the sentence itself, with its time, never text the model typed.
public enum EntrySentences {
    /// The sentences of `entry`: its typed text, else its transcript as corrected, timed by
    /// the transcript's words.
    public static func of(_ entry: EntryDetails) -> [EntrySentence] {
        if entry.content.isEmpty, let segments = entry.segments, !segments.isEmpty {
            return timed(segments)
        }
        return split(entry.text)
    }

    /// Sentences of plain text: cut after `.`, `!`, `?` or `…` (closing quotes and brackets
    /// kept with it) followed by a space, and at line breaks.
    public static func split(_ text: String) -> [EntrySentence] {
        var sentences: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            if character.isNewline {
                flush(&current, into: &sentences)
                continue
            }
            current.append(character)
            let closes = Self.ends(character) || Self.closing.contains(character) && index > 0 && Self.ends(characters[index - 1])
            if closes, index + 1 == characters.count || characters[index + 1].isWhitespace {
                flush(&current, into: &sentences)
            }
        }
        flush(&current, into: &sentences)
        return sentences.enumerated().map { EntrySentence(number: $0.offset + 1, text: $0.element) }
    }

    /// Sentences of a timed transcript: its words in order, a sentence ending at a word that
    /// ends one. A segment without words counts as its words spread over the segment.
    static func timed(_ segments: [Transcript.Segment]) -> [EntrySentence] {
        var words: [(text: String, start: Double, end: Double)] = []
        for segment in segments {
            if let timed = segment.words, !timed.isEmpty {
                words += timed.map { ($0.word.trimmingCharacters(in: .whitespacesAndNewlines), $0.start, $0.end) }
            } else {
                let parts = segment.text.split(whereSeparator: \.isWhitespace).map(String.init)
                guard !parts.isEmpty else { continue }
                let step = max(0, segment.end - segment.start) / Double(parts.count)
                for (index, part) in parts.enumerated() {
                    words.append((part, segment.start + step * Double(index), segment.start + step * Double(index + 1)))
                }
            }
        }
        var sentences: [EntrySentence] = []
        var text = "", start: Double?, end: Double?
        func close() {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, let start, let end {
                sentences.append(EntrySentence(number: sentences.count + 1, text: trimmed, start: start, end: max(start, end)))
            }
            text = ""
            start = nil
            end = nil
        }
        for word in words where !word.text.isEmpty {
            if start == nil { start = word.start }
            text += text.isEmpty ? word.text : " " + word.text
            end = word.end
            if let last = word.text.last, Self.ends(last) || Self.closing.contains(last) && word.text.dropLast().last.map(Self.ends) == true {
                close()
            }
        }
        close()
        return sentences
    }

    /// Quotes and brackets that close a sentence with them: `"Yes."` ends at its quote.
    private static let closing: Set<Character> = ["\"", "'", "”", "’", ")", "]", "»"]

    private static func ends(_ character: Character) -> Bool { ".!?…。！？".contains(character) }

    private static func flush(_ current: inout String, into sentences: inout [String]) {
        let trimmed = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { sentences.append(trimmed) }
        current = ""
    }
}
