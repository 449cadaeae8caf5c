import Foundation

extension ChunkPlanner {
    /// A recording's speech as sample ranges, with the look-ups the planner cuts by.
    struct Timeline {
        /// In order, not overlapping, none empty.
        let speech: [Range<Int64>]
        let sampleRate: Int

        func samples(_ seconds: Double) -> Int64 {
            guard seconds.isFinite else { return seconds > 0 ? Int64.max / 4 : 0 }
            return Int64((seconds * Double(sampleRate)).rounded())
        }

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

        /// The middle of the longest pause in `window`: among pauses of at least
        /// `preferredPause` if there are any, else among all; the window's end when speech
        /// fills it. On a tie the later pause wins, for longer chunks.
        func cut(in window: Range<Int64>, preferredPause: Int64) -> Int64 {
            var best: Range<Int64>?
            var bestPreferred: Range<Int64>?
            func consider(_ pause: Range<Int64>) {
                guard !pause.isEmpty else { return }
                if pause.count >= (best?.count ?? 0) { best = pause }
                if pause.count >= preferredPause && pause.count >= (bestPreferred?.count ?? 0) { bestPreferred = pause }
            }
            var pauseStart = window.lowerBound
            var index = firstSpeech(endingAfter: window.lowerBound)
            while index < speech.count && speech[index].lowerBound < window.upperBound {
                consider(pauseStart..<max(pauseStart, speech[index].lowerBound))
                pauseStart = max(pauseStart, speech[index].upperBound)
                index += 1
            }
            if pauseStart < window.upperBound { consider(pauseStart..<window.upperBound) }
            guard let chosen = bestPreferred ?? best else { return window.upperBound }
            return chosen.lowerBound + Int64(chosen.count) / 2
        }
    }
}
