extension PlaybackLine {
    /// The line of key hints under the status and the spoken words, dimmed (`color`):
    /// `space pause · ←/→ 5 s · ↑/↓ segment · q quit`, `space play` while paused, the segment
    /// keys only when there are segments to step through (`segments`), words for the arrows
    /// in ASCII. Empty when it does not fit in `width`: a narrow terminal keeps its columns for
    /// the status and the words.
    package static func keyHint(isPaused: Bool, skipSeconds: Double, segments: Bool, width: Int, color: Bool,
                                charset: Charset = .unicode) -> String {
        let unicode = charset == .unicode
        let skip = skipSeconds == skipSeconds.rounded() ? String(Int(skipSeconds)) : String(skipSeconds)
        var keys = ["space " + (isPaused ? "play" : "pause"), (unicode ? "←/→ " : "left/right ") + skip + " s"]
        if segments { keys.append((unicode ? "↑/↓" : "up/down") + " segment") }
        keys.append("q quit")
        let hint = keys.joined(separator: unicode ? " · " : " | ")
        guard columns(hint) <= width else { return "" }
        return ANSI.paint(hint, ANSI.dim, color)
    }
}
