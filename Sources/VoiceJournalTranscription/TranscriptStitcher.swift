import Foundation

/// What the server heard in one chunk, and where the chunk lies in its recording.
package struct ChunkTranscript: Sendable, Equatable {
    /// Where the chunk starts on the recording's original timeline, in seconds (`AudioChunk.startSeconds`).
    package var startSeconds: Double
    /// Where the chunk ends on the recording's timeline (`AudioChunk.endSeconds`), when known:
    /// no word of the chunk was heard after it, whatever times the model gave.
    package var endSeconds: Double?
    /// The cut before the chunk went through speech (`AudioChunk.startsInSpeech`).
    package var startsInSpeech: Bool
    /// The chunk's transcript, timestamps relative to the chunk.
    package var result: TranscriptionResult

    package init(startSeconds: Double, endSeconds: Double? = nil, startsInSpeech: Bool = false, result: TranscriptionResult) {
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.startsInSpeech = startsInSpeech
        self.result = result
    }
}

/// Joins the transcripts of a recording's chunks into one transcript of the recording.
///
/// Segments are shifted onto the original timeline, kept (words too) within their chunk's
/// stretch — a segment the model ran on past its upload's end must not claim the next chunk's
/// time — and clamped so each starts no earlier than the one before it ended; texts are joined in order with single spaces; chunks with no text
/// are skipped. A word can be heard twice only where a seam cut through speech (a word cut in
/// two is heard by both chunks) or where the chunks' segments claim the same time: there,
/// when a chunk's first words repeat the previous chunk's last (up to `longestRepeatWords`,
/// compared in lowercase without punctuation), the repeat is dropped from the later chunk.
/// A longer run is dropped only when it is a whole sentence on both sides (up to
/// `longestRepeatedSentenceWords`): the sentence the seam cut through, heard in part by one
/// chunk and completed by its model, heard whole by the other. A seam in a pause keeps every
/// word: "…okay. / Okay, so…", counting and refrains were said twice.
package enum TranscriptStitcher {
    /// The longest run of words looked for at a seam.
    package static let longestRepeatWords = 5
    /// The longest whole sentence looked for at a seam.
    package static let longestRepeatedSentenceWords = 40

    /// One transcript from the chunks' transcripts in timeline order. Model and language are the
    /// first chunk's that gives them; the duration is `durationSeconds` (the recording's).
    package static func stitch(_ chunks: [ChunkTranscript], durationSeconds: Double? = nil) -> TranscriptionResult {
        var texts: [String] = []
        var segments: [TranscriptionResult.Segment] = []
        var previousWords: [String] = []
        // For each of those words, whether a sentence ends with it; and whether they begin one.
        var previousEnds: [Bool] = []
        var previousStartsSentence = true
        // Where the words of the chunks so far were last heard, on the recording's timeline.
        var heardUntil: Double?
        for chunk in chunks {
            var tokens = Tokens(chunk.result.text)
            var repeated = 0
            if chunk.startsInSpeech || overlaps(chunk, heardUntil: heardUntil) {
                repeated = repeatedSentenceCount(ending: previousWords, endingSentences: previousEnds,
                                                 startsSentence: previousStartsSentence, starting: tokens)
                    ?? repeatedWordCount(ending: previousWords, starting: tokens.words)
            }
            tokens.dropWords(repeated)
            guard !tokens.text.isEmpty else { continue }
            texts.append(tokens.text)
            // The last words so far, and whether the first of them begins a sentence.
            let words = previousWords + tokens.words, ends = previousEnds + tokens.sentenceEnds
            let dropped = words.count - longestRepeatedSentenceWords
            if dropped > 0 { previousStartsSentence = ends[dropped - 1] }
            previousWords = Array(words.suffix(longestRepeatedSentenceWords))
            previousEnds = Array(ends.suffix(longestRepeatedSentenceWords))
            // A chunk without segments (gpt-4o) says nothing of when its words were heard.
            heardUntil = chunk.result.segments.last { !Tokens($0.text).words.isEmpty }.map { last in
                let end = chunk.startSeconds + last.end
                return chunk.endSeconds.map { min(end, $0) } ?? end
            }

            var wordsToDrop = repeated
            for segment in chunk.result.segments {
                var segmentTokens = Tokens(segment.text)
                let dropped = min(wordsToDrop, segmentTokens.words.count)
                segmentTokens.dropWords(dropped)
                wordsToDrop -= dropped
                if dropped > 0 && segmentTokens.text.isEmpty { continue }
                let text = dropped > 0 ? segmentTokens.text.leadingSpaceLike(segment.text) : segment.text
                let floor = segments.last?.end ?? 0
                var stitched = segment.shifted(by: chunk.startSeconds).clamped(to: chunk.startSeconds, chunk.endSeconds)
                stitched.start = max(stitched.start, floor)
                stitched.end = max(stitched.end, stitched.start)
                stitched.text = text
                if dropped > 0, let words = stitched.words { stitched.words = Array(words.dropFirst(dropped)) }
                segments.append(stitched)
            }
        }
        let first = chunks.first { !$0.result.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
        return TranscriptionResult(
            text: texts.joined(separator: " "),
            language: chunks.lazy.compactMap(\.result.language).first,
            durationSeconds: durationSeconds,
            segments: segments,
            model: first?.result.model ?? chunks.first?.result.model ?? "")
    }

    /// Whether the chunk's first words are placed before the words before them were last
    /// heard: the same stretch of time transcribed twice.
    static func overlaps(_ chunk: ChunkTranscript, heardUntil: Double?) -> Bool {
        guard let heardUntil, let first = chunk.result.segments.first(where: { !Tokens($0.text).words.isEmpty }) else { return false }
        return chunk.startSeconds + first.start < heardUntil
    }

    /// How many words at the start of `starting` are the whole last sentence of `ending`
    /// (longer than `longestRepeatWords`): the run ends a sentence in `starting`, and the
    /// words before it in `ending` end one (or it begins what `ending` holds, which itself
    /// begins a sentence). Nil when there is none.
    static func repeatedSentenceCount(ending: [String], endingSentences: [Bool], startsSentence: Bool, starting: Tokens) -> Int? {
        let words = starting.words, ends = starting.sentenceEnds
        let longest = min(longestRepeatedSentenceWords, ending.count, words.count)
        guard longest > longestRepeatWords else { return nil }
        for count in stride(from: longest, to: longestRepeatWords, by: -1) where ends[count - 1] && endingSentences.last == true {
            let before = ending.count - count
            guard before == 0 ? startsSentence : endingSentences[before - 1] else { continue }
            if Array(ending.suffix(count)) == Array(words.prefix(count)) { return count }
        }
        return nil
    }

    /// How many words at the start of `starting` repeat the end of `ending` (longest match first).
    static func repeatedWordCount(ending: [String], starting: [String]) -> Int {
        let longest = min(longestRepeatWords, ending.count, starting.count)
        guard longest > 0 else { return 0 }
        for count in stride(from: longest, through: 1, by: -1)
        where Array(ending.suffix(count)) == Array(starting.prefix(count)) {
            return count
        }
        return 0
    }

    /// A text cut into whitespace-separated tokens, with the words (lowercase, letters and
    /// digits only) they hold; tokens that are only punctuation hold no word.
    struct Tokens {
        private var tokens: [Substring]

        init(_ text: String) {
            tokens = text.split(whereSeparator: \.isWhitespace)
        }

        var text: String { tokens.joined(separator: " ") }

        var words: [String] { tokens.map(Self.word).filter { !$0.isEmpty } }

        /// For each word, whether a sentence ends with it (its token ends in . ! ? or …,
        /// before any closing quote or bracket).
        var sentenceEnds: [Bool] {
            tokens.filter { !Self.word($0).isEmpty }.map { token in
                let trimmed = token.reversed().drop { "\"'”’)]»".contains($0) }
                return trimmed.first.map { ".!?…。！？".contains($0) } ?? false
            }
        }

        static func word(_ token: Substring) -> String {
            String(token.lowercased().unicodeScalars.filter(CharacterSet.alphanumerics.contains).map(Character.init))
        }

        /// Drops the first `count` words and any punctuation-only tokens before and among them.
        mutating func dropWords(_ count: Int) {
            guard count > 0 else { return }
            var remaining = count
            while let token = tokens.first, remaining > 0 {
                if !Self.word(token).isEmpty { remaining -= 1 }
                tokens.removeFirst()
            }
        }
    }
}

private extension TranscriptionResult.Segment {
    /// The segment and its words within `start`...`end` (no end: unbounded after).
    func clamped(to start: Double, _ end: Double?) -> TranscriptionResult.Segment {
        let upper = max(end ?? .infinity, start)
        func clamp(_ time: Double) -> Double { min(max(time, start), upper) }
        var segment = self
        segment.start = clamp(self.start)
        segment.end = max(clamp(self.end), segment.start)
        segment.words = words?.map { .init(start: clamp($0.start), end: max(clamp($0.end), clamp($0.start)), word: $0.word) }
        return segment
    }
}

private extension String {
    /// This text with the leading space `original` had (Whisper starts segments with one).
    func leadingSpaceLike(_ original: String) -> String {
        original.first?.isWhitespace == true ? " " + self : self
    }
}
