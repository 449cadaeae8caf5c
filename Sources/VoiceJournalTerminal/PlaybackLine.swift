/// The player's lines as text: the status line (playing or paused, elapsed / total, a
/// position bar, the level, the title), under it the transcript segment being spoken, its
/// current word marked, and the keys (`keyHint`). Pure functions from a state to strings;
/// the player redraws them.
package enum PlaybackLine {
    /// What the status line shows.
    package struct State: Sendable, Equatable {
        /// Where the listener is, in seconds on the file's clock.
        package var seconds: Double
        /// The file's length; nil while unknown (`--:--`, an empty bar).
        package var totalSeconds: Double?
        package var isPaused: Bool
        /// The level of what is heard now; at or below `MeterLine.floorDBFS` it shows dimmed.
        package var peakDBFS: Double
        /// What is playing, as given (from outside: escaped here).
        package var title: String

        package init(seconds: Double, totalSeconds: Double?, isPaused: Bool, peakDBFS: Double, title: String = "") {
            self.seconds = seconds
            self.totalSeconds = totalSeconds
            self.isPaused = isPaused
            self.peakDBFS = peakDBFS
            self.title = title
        }
    }

    /// One timed piece of a transcript, on the file's clock (Terminal's own copy of a stored
    /// segment: this module depends on nothing).
    package struct Segment: Sendable, Equatable {
        package var start: Double
        package var end: Double
        package var text: String
        /// Its words with their times; empty when the transcript has no word timings.
        package var words: [Word]

        package init(start: Double, end: Double, text: String, words: [Word] = []) {
            self.start = start
            self.end = end
            self.text = text
            self.words = words
        }
    }

    /// One word and when it was said.
    package struct Word: Sendable, Equatable {
        package var start: Double
        package var end: Double
        package var text: String

        package init(start: Double, end: Double, text: String) {
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// The bar never grows past this: a wide terminal gets room for the title instead.
    static let longestBar = 50
    /// The bar never shrinks below this while it is shown at all.
    static let shortestBar = 10

    // MARK: - status line

    /// The status line, exactly `width` columns: `▶ 01:23 / 10:00 [████······]  -12.4 dBFS  title`.
    /// The bar gets what the title leaves (at least `shortestBar`), the title what is left
    /// (cut with "…", dropped when fewer than 4 columns are left); on a narrow terminal the
    /// bar goes too. `color` paints the glyph and the level like the meter's zones.
    package static func status(_ state: State, width: Int, color: Bool, charset: Charset = .unicode) -> String {
        let width = max(width, 1)
        let glyph = charset == .unicode ? (state.isPaused ? "⏸" : "▶") : (state.isPaused ? "=" : ">")
        let time = " " + Clock.text(state.seconds, .position) + " / " + (state.totalSeconds.map { Clock.text($0, .position) } ?? "--:--")
        let number = MeterLine.dbfs(state.peakDBFS.isNaN ? -120 : min(max(state.peakDBFS, -120), 0))
        let level = String(repeating: " ", count: max(0, 6 - number.count)) + number + " dBFS"
        let fixed = 1 + time.count + 1 + level.count
        let title = oneLine(state.title)

        // " [" + bar + "]" before the level (padded to the width of "-120.0" so it keeps its
        // place), "  " + title after it.
        let room = width - fixed - 3
        guard room >= shortestBar else {
            return pad(ANSI.paint(glyph, glyphColor(state), color) + time + " " + ANSI.paint(level, levelColor(state), color), plain: glyph + time + " " + level, width: width)
        }
        var barWidth = min(room, longestBar)
        var titleText = ""
        let titleRoom = room - shortestBar - 2
        if !title.isEmpty, titleRoom >= 4 {
            let wanted = min(columns(title), titleRoom)
            barWidth = min(room - 2 - wanted, longestBar)
            titleText = "  " + fit(title, width: wanted)
        }
        let bar = positionBar(state, width: barWidth, color: color, charset: charset)
        let plain = glyph + time + " [" + ANSI.stripped(bar) + "] " + level + titleText
        let text = ANSI.paint(glyph, glyphColor(state), color) + time + " [" + bar + "] " + ANSI.paint(level, levelColor(state), color) + titleText
        return pad(text, plain: plain, width: width)
    }

    /// The bar's cells: how far into the file `seconds` is; all empty while the length is unknown.
    static func positionBar(_ state: State, width: Int, color: Bool, charset: Charset) -> String {
        let (full, empty): (Character, Character) = charset == .unicode ? ("█", "·") : ("#", "-")
        var filled = 0
        if let total = state.totalSeconds, total > 0, state.seconds.isFinite {
            filled = min(width, max(0, Int((state.seconds / total * Double(width)).rounded(.down))))
        }
        let lit = String(repeating: full, count: filled)
        let rest = String(repeating: empty, count: width - filled)
        guard color else { return lit + rest }
        return ANSI.paint(lit, ANSI.cyan, true) + ANSI.paint(rest, ANSI.dim, true)
    }

    private static func glyphColor(_ state: State) -> String { state.isPaused ? ANSI.yellow : ANSI.green }

    private static func levelColor(_ state: State) -> String {
        state.peakDBFS > MeterLine.floorDBFS ? MeterLine.escape(MeterLine.zone(state.peakDBFS)) : ANSI.dim
    }

    /// `text` cut or padded with spaces so that `plain` (what it shows) takes `width` columns.
    private static func pad(_ text: String, plain: String, width: Int) -> String {
        let used = columns(plain)
        if used <= width { return text + String(repeating: " ", count: width - used) }
        // Only on a terminal too narrow for glyph, time and level: the plain text, cut.
        return fit(plain, width: width) + String(repeating: " ", count: max(0, width - columns(fit(plain, width: width))))
    }

    // MARK: - spoken line

    /// The segment being spoken at `seconds`: the last one started by then, while it lasts or
    /// until the next one starts (a pause between two keeps the last words on screen); nil
    /// before the first.
    package static func segmentIndex(at seconds: Double, in segments: [Segment]) -> Int? {
        var found: Int?
        for (index, segment) in segments.enumerated() where segment.start <= seconds {
            if found.map({ segments[$0].start <= segment.start }) ?? true { found = index }
        }
        return found
    }

    /// The line under the status line: the segment being spoken at `seconds` (escaped, on one
    /// line, at most `width` columns, "…" where cut), its current word in bold (`color`) or in
    /// [brackets] when the segment has word timings. A long segment scrolls so the current
    /// word stays in sight. Empty before the first segment.
    package static func spoken(_ segments: [Segment], at seconds: Double, width: Int, color: Bool) -> String {
        guard let index = segmentIndex(at: seconds, in: segments) else { return "" }
        let segment = segments[index]
        let width = max(width, 1)
        let timed = segment.words.map { (start: $0.start, text: oneLine($0.text)) }.filter { !$0.text.isEmpty }
        guard !timed.isEmpty, seconds < segment.end else { return fit(oneLine(segment.text), width: width) }
        // The current word: the last one started (between two words the earlier stays marked).
        let current = timed.lastIndex { $0.start <= seconds }
        return wordLine(timed.map(\.text), current: current, width: width, color: color)
    }

    /// `words` joined by spaces into at most `width` columns, `current` marked and in sight:
    /// "… " before when words were left out at the start, " …" after when at the end.
    static func wordLine(_ words: [String], current: Int?, width: Int, color: Bool) -> String {
        func size(_ index: Int) -> Int { columns(words[index]) + (index == current && !color ? 2 : 0) }
        func mark(_ text: String) -> String { color ? ANSI.bold + text + ANSI.reset : "[" + text + "]" }

        // From the first word while the current one fits with room for " …" after it; else
        // the current word about a third of the way in, the words before it filling that third.
        var first = 0
        if let current, (0...current).reduce(current, { $0 + size($1) }) > width - 2 {
            first = current
            var before = 2
            while first > 0, before + size(first - 1) + 1 <= width / 3 {
                first -= 1
                before += size(first) + 1
            }
        }
        var line = first > 0 ? "… " : ""
        var used = first > 0 ? 2 : 0
        for index in first..<words.count {
            let gap = index == first ? 0 : 1
            let after = index == words.count - 1 ? 0 : 2
            guard used + gap + size(index) + after > width else {
                line += String(repeating: " ", count: gap) + (index == current ? mark(words[index]) : words[index])
                used += gap + size(index)
                continue
            }
            if index == first || index == current {
                // A word longer than the line, or the current one at its end: cut, never hidden.
                let room = width - used - gap - (index == current && !color ? 2 : 0)
                guard room > 0 else { return line }
                let cut = fit(words[index], width: room)
                return line + String(repeating: " ", count: gap) + (index == current ? mark(cut) : cut)
            }
            return line + " …"
        }
        return line
    }

    // MARK: - columns

    /// `text` on one line: runs of white space (line breaks too) become one space, the ends
    /// are trimmed, control characters escaped.
    static func oneLine(_ text: String) -> String {
        TerminalText.escaped(text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
    }

    /// At most `width` columns of `text`, ending in "…" when cut.
    static func fit(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = columns(character)
            if used + size > width - 1 { break }
            result.append(character)
            used += size
        }
        return width > 0 ? result + "…" : ""
    }

    /// Columns `text` takes on a terminal: two for wide (East Asian, emoji) characters.
    static func columns(_ text: String) -> Int { text.reduce(0) { $0 + columns($1) } }

    static func columns(_ character: Character) -> Int {
        guard let scalar = character.unicodeScalars.first else { return 0 }
        // An emoji shown as a picture (variation selector 16) is wide too.
        if character.unicodeScalars.contains("\u{FE0F}") { return 2 }
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}
