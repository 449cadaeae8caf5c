/// Where a batch stands, for the progress bar.
package struct BatchProgress: Sendable, Equatable {
    package var total: Int
    package var done: Int
    package var failed: Int
    /// Seconds since the batch started.
    package var elapsed: Double
    /// Chunks of the long files being transcribed now (split for upload): transcribed, and in all.
    package var chunksDone = 0
    package var chunksTotal = 0
    /// The split files in progress, counted in files: each adds its share of chunks transcribed.
    package var partialFiles = 0.0

    package init(total: Int, done: Int = 0, failed: Int = 0, elapsed: Double = 0) {
        self.total = total
        self.done = done
        self.failed = failed
        self.elapsed = elapsed
    }

    /// Files that ended either way.
    package var finished: Int { done + failed }

    /// How much of the batch is done, 0...1: finished files, and of each split file in
    /// progress the share of its chunks transcribed (a two-hour file moves the bar as it goes).
    package var fraction: Double {
        guard total > 0 else { return 0 }
        return min(1, (Double(finished) + partialFiles) / Double(total))
    }

    /// Files per minute so far; nil until one has finished.
    package var filesPerMinute: Double? {
        guard finished > 0, elapsed > 0 else { return nil }
        return Double(finished) / elapsed * 60
    }

    /// Seconds left at the pace so far; nil until there is a pace.
    package var secondsLeft: Double? {
        guard let perMinute = filesPerMinute else { return nil }
        return Double(max(0, total - finished)) / perMinute * 60
    }
}

/// Renders a batch's progress as one line: a bar, done/total, failures, pace and ETA.
/// Pure: the caller decides where it goes (stderr, redrawn in place on a TTY).
package enum ProgressBar {
    /// `[██████░░░░] 12/40 · chunks 3/7 · 1 failed · 23.4 files/min · ETA 1:12`, fitted to
    /// `width` columns (the bar shrinks first, then goes). The chunks part shows only while a
    /// split file is in progress. `color` adds ANSI colours.
    package static func line(_ progress: BatchProgress, width: Int, color: Bool) -> String {
        var parts = ["\(progress.finished)/\(progress.total)"]
        if progress.chunksTotal > 0 { parts.append("chunks \(progress.chunksDone)/\(progress.chunksTotal)") }
        if progress.failed > 0 { parts.append(ANSI.paint("\(progress.failed) failed", ANSI.red, color)) }
        parts.append(progress.filesPerMinute.map { "\(oneDecimal($0)) files/min" } ?? "-- files/min")
        parts.append("ETA " + (progress.secondsLeft.map(clock) ?? "--:--"))
        var plainLength = parts.joined(separator: " · ").count
        if progress.failed > 0 { plainLength -= color ? (ANSI.red.count + ANSI.reset.count) : 0 }
        let text = parts.joined(separator: " · ")

        let barWidth = min(40, width - plainLength - 4)
        guard barWidth >= 5 else { return text }
        let filled = min(barWidth, Int((progress.fraction * Double(barWidth)).rounded(.down)))
        let bar = ANSI.paint(String(repeating: "█", count: filled), ANSI.green, color) + String(repeating: "░", count: barWidth - filled)
        return "[\(bar)] \(text)"
    }

    /// `m:ss`, or `h:mm:ss` past an hour.
    package static func clock(_ seconds: Double) -> String { Clock.text(seconds, .elapsed) }


    /// `12.3`: one decimal, as `String(format: "%.1f")` gives it without its cost (a line per file).
    package static func oneDecimal(_ value: Double) -> String {
        guard value.isFinite else { return "0.0" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
