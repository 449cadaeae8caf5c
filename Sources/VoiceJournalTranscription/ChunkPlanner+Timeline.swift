import VoiceJournalAudio
import Foundation

extension ChunkPlanner {
    /// A recording's speech as sample ranges, with the look-ups the planner cuts by.
    struct Timeline {
        /// In order, not overlapping, none empty.
        let speech: [Range<Int64>]
        let sampleRate: Int

        func samples(_ seconds: Double) -> Int64 { frameCount(seconds: seconds, rate: Double(sampleRate)) }

        /// The index of the first stretch of speech that ends after `sample`.
        func firstSpeech(endingAfter sample: Int64) -> Int {
            var low = 0
            var high = speech.count
            while low < high {
                let middle = (low + high) / 2
                if speech[middle].upperBound <= sample { low = middle + 1 } else { high = middle }
            }
            return low
        }

        func hasSpeech(in range: Range<Int64>) -> Bool {
            let index = firstSpeech(endingAfter: range.lowerBound)
            return index < speech.count && speech[index].lowerBound < range.upperBound && !range.isEmpty
        }

        /// Whether a cut at `sample` goes through speech: speech on both sides of it.
        func isInsideSpeech(_ sample: Int64) -> Bool {
            let index = firstSpeech(endingAfter: sample)
            return index < speech.count && speech[index].lowerBound < sample
        }

        /// Where a chunk that ends at `cut` should end: `padding` after its last speech, or at
        /// the cut itself when that falls inside speech.
        func speechEnd(before cut: Int64, padding: Int64) -> Int64 {
            let index = firstSpeech(endingAfter: cut)
            if index < speech.count && speech[index].lowerBound < cut { return cut }
            guard index > 0 else { return cut }
            return min(cut, speech[index - 1].upperBound + padding)
        }

        /// Where the chunk after `cut` should start: `padding` before its first speech, or at
        /// the cut when that falls inside speech; nil when no speech follows.
        func speechStart(after cut: Int64, padding: Int64) -> Int64? {
            let index = firstSpeech(endingAfter: cut)
            guard index < speech.count else { return nil }
            return max(cut, speech[index].lowerBound - padding)
        }

        /// Where to cut a chunk whose cut window is `window`: the middle of the longest pause
        /// of at least `preferredPause` in the window; failing that, of the latest such pause
        /// in `fallback` (the rest of the chunk: a shorter chunk beats a cut between two
        /// words); failing that, of the longest pause of any length in the window; and only
        /// when speech fills the window, the window's end. On a tie the later pause wins.
        func cut(in window: Range<Int64>, fallback: Range<Int64>, preferredPause: Int64) -> Int64 {
            let inWindow = pauses(in: window)
            let preferred = max(preferredPause, 1)
            let chosen = inWindow.filter { $0.count >= preferred }.longest
                ?? pauses(in: fallback).last { $0.count >= preferred }
                ?? inWindow.longest
            guard let chosen else { return window.upperBound }
            return chosen.lowerBound + Int64(chosen.count) / 2
        }

        /// The stretches of `range` with no speech, in order.
        func pauses(in range: Range<Int64>) -> [Range<Int64>] {
            var found: [Range<Int64>] = []
            var pauseStart = range.lowerBound
            var index = firstSpeech(endingAfter: range.lowerBound)
            while index < speech.count && speech[index].lowerBound < range.upperBound {
                if speech[index].lowerBound > pauseStart { found.append(pauseStart..<speech[index].lowerBound) }
                pauseStart = max(pauseStart, speech[index].upperBound)
                index += 1
            }
            if pauseStart < range.upperBound { found.append(pauseStart..<range.upperBound) }
            return found
        }
    }
}

private extension Array where Element == Range<Int64> {
    /// The longest range, the later one on a tie.
    var longest: Range<Int64>? {
        reduce(nil) { best, range in range.count >= (best?.count ?? 0) ? range : best }
    }
}
