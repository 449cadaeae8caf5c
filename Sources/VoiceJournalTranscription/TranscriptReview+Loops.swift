import Foundation

/// A phrase said several times in a row in a list of words: `start..<keepEnd` is its first
/// occurrence (kept), `keepEnd..<end` the repetitions (left out). Indices are into the list as
/// written, so words without letters or digits ("—") between repetitions go with them.
struct RepeatRun: Equatable {
    var start: Int
    var keepEnd: Int
    var end: Int

    var removed: Range<Int> { keepEnd..<end }

    /// Runs of a phrase of 1…`longestPhrase` words said `minimumRepeats` or more times in a row.
    /// From each word, the shortest such phrase is taken ("no no no no" is "no" four times),
    /// and the search goes on after the run.
    static func find(in words: [some StringProtocol], minimumRepeats: Int, longestPhrase: Int) -> [RepeatRun] {
        let stream = comparable(words)
        let keys = stream.map(\.key)
        var runs: [RepeatRun] = []
        var at = 0
        while at < keys.count {
            var found: (length: Int, count: Int)?
            var length = 1
            while found == nil, length <= longestPhrase, at + length * minimumRepeats <= keys.count {
                var count = 1
                while at + (count + 1) * length <= keys.count,
                      keys[(at + count * length)..<(at + (count + 1) * length)] == keys[at..<(at + length)] {
                    count += 1
                }
                if count >= minimumRepeats { found = (length, count) }
                length += 1
            }
            guard let (length, count) = found else {
                at += 1
                continue
            }
            runs.append(RepeatRun(start: stream[at].index, keepEnd: stream[at + length].index,
                                  end: stream[at + count * length - 1].index + 1))
            at += count * length
        }
        return runs
    }

    /// When the words are one phrase said `count` ≥ 1 times over (and nothing else), the
    /// phrase's keys and the count; the run that keeps one occurrence when `count` > 1.
    static func period(of words: [some StringProtocol]) -> (unit: [String], count: Int, run: RepeatRun?) {
        let stream = comparable(words)
        let keys = stream.map(\.key)
        guard !keys.isEmpty else { return ([], 0, nil) }
        for length in 1...keys.count where keys.count % length == 0 {
            guard keys.indices.allSatisfy({ keys[$0] == keys[$0 % length] }) else { continue }
            let count = keys.count / length
            let run = count > 1 ? RepeatRun(start: stream[0].index, keepEnd: stream[length].index, end: words.count) : nil
            return (Array(keys[0..<length]), count, run)
        }
        return (keys, 1, nil)
    }

    /// The words that have letters or digits, as compared, with where each is in the list.
    private static func comparable(_ words: [some StringProtocol]) -> [(key: String, index: Int)] {
        words.enumerated().compactMap { index, word in
            let key = SegmentTokens.key(word)
            return key.isEmpty ? nil : (key, index)
        }
    }
}

extension TranscriptReview {
    /// What cutting loops out of the kept candidates left.
    struct LoopCut {
        var kept: [TranscriptionResult.Segment] = []
        var leftOut: [LeftOutSegment] = []
        var regions: [Range<Double>] = []
    }

    /// Cuts repetition loops: inside each segment, then across consecutive segments, then
    /// segments whose compression ratio says they loop where no repetition could be cut.
    func cutLoops(_ segments: [TranscriptionResult.Segment]) -> LoopCut {
        var result = LoopCut()
        var looped: [Bool] = []
        for segment in segments {
            let tokens = SegmentTokens(segment)
            let find = { (words: [Substring]) in
                RepeatRun.find(in: words, minimumRepeats: settings.loopRepeats, longestPhrase: settings.longestLoopPhraseWords)
            }
            let cut = Self.cut(tokens, textRuns: find(tokens.texts), wordRuns: find(tokens.words.map { Substring($0.word) }))
            result.kept.append(cut.kept)
            looped.append(cut.removed != nil)
            if let removed = cut.removed { result.leftOut.append(LeftOutSegment(segment: removed, reason: .repetition)) }
            result.regions += cut.regions
        }
        cutAcrossSegments(&result, looped: &looped)
        var kept: [TranscriptionResult.Segment] = []
        for (segment, wasLooped) in zip(result.kept, looped) {
            if !wasLooped, let ratio = segment.compressionRatio, ratio > settings.loopCompressionRatio {
                result.leftOut.append(LeftOutSegment(segment: segment, reason: .repetition))
                result.regions.append(segment.start..<max(segment.end, segment.start))
            } else {
                kept.append(segment)
            }
        }
        result.kept = kept
        return result
    }

    /// Consecutive segments that are all the same phrase (once or more each), `loopRepeats`
    /// or more times in all: the first keeps one occurrence, the others are left out.
    private func cutAcrossSegments(_ result: inout LoopCut, looped: inout [Bool]) {
        let periods = result.kept.map { RepeatRun.period(of: SegmentTokens($0).texts) }
        var kept: [TranscriptionResult.Segment] = [], keptLooped: [Bool] = []
        var index = 0
        while index < result.kept.count {
            var next = index + 1, total = periods[index].count
            while next < result.kept.count, !periods[index].unit.isEmpty, periods[next].unit == periods[index].unit {
                total += periods[next].count
                next += 1
            }
            guard next - index >= 2, total >= settings.loopRepeats else {
                kept.append(result.kept[index])
                keptLooped.append(looped[index])
                index += 1
                continue
            }
            let first = SegmentTokens(result.kept[index])
            let wordRun = first.words.isEmpty ? nil : RepeatRun.period(of: first.words.map(\.word)).run
            let cut = Self.cut(first, textRuns: periods[index].run.map { [$0] } ?? [], wordRuns: wordRun.map { [$0] } ?? [])
            kept.append(cut.kept)
            keptLooped.append(true)
            if let removed = cut.removed { result.leftOut.append(LeftOutSegment(segment: removed, reason: .repetition)) }
            for later in result.kept[(index + 1)..<next] {
                result.leftOut.append(LeftOutSegment(segment: later, reason: .repetition))
            }
            let last = result.kept[next - 1]
            result.regions.append(result.kept[index].start..<max(last.end, result.kept[index].start))
            index = next
        }
        result.kept = kept
        looped = keptLooped
    }

    /// One segment with the repetitions of `textRuns` (runs over its text's words) or
    /// `wordRuns` (over its timed words) taken out, what was taken, and the loops' regions:
    /// the runs' words' times when it has words, else its whole span.
    ///
    /// When text and words line up, both lose the same places. When they do not, the timed
    /// words decide (the text is rebuilt from the words left); with no runs in the words, the
    /// text alone is cut.
    static func cut(_ tokens: SegmentTokens, textRuns: [RepeatRun], wordRuns: [RepeatRun])
        -> (kept: TranscriptionResult.Segment, removed: TranscriptionResult.Segment?, regions: [Range<Double>]) {
        let segment = tokens.segment
        let wordRegions = { (runs: [RepeatRun]) in
            runs.map { run in tokens.words[run.start].start..<max(tokens.words[run.end - 1].end, tokens.words[run.start].start) }
        }
        let indices = { (runs: [RepeatRun]) in Set(runs.flatMap { Array($0.removed) }) }
        if tokens.aligned, !textRuns.isEmpty {
            let cut = tokens.removingWords(indices(textRuns))
            return (cut.kept, cut.removed, wordRegions(textRuns))
        }
        if !tokens.aligned, !tokens.words.isEmpty, !wordRuns.isEmpty {
            let cut = tokens.removingWords(indices(wordRuns))
            return (cut.kept, cut.removed, wordRegions(wordRuns))
        }
        if !textRuns.isEmpty {
            let cut = tokens.removing(texts: indices(textRuns), words: [])
            return (cut.kept, cut.removed, [segment.start..<max(segment.end, segment.start)])
        }
        return (segment, nil, [])
    }
}
