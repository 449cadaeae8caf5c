import Foundation

/// One timed line of an SRT or WebVTT file.
struct Cue: Equatable {
    let start: Double
    let end: Double
    let text: String
}

/// A strict reader for the SRT and WebVTT that Whisper servers and voicejournal write, so a
/// malformed file fails the test instead of being read loosely.
enum Subtitles {
    /// Reads SRT: numbered blocks from 1, `HH:MM:SS,mmm --> HH:MM:SS,mmm`, text lines, a blank line.
    static func srt(_ text: String) throws -> [Cue] {
        try blocks(text).enumerated().map { index, lines in
            guard lines.count >= 3, lines[0] == "\(index + 1)" else {
                throw Unexpected(description: "SRT block \(index + 1) is not numbered \(index + 1): \(lines)")
            }
            return try cue(timing: lines[1], separator: ",", text: lines[2...])
        }
    }

    /// Reads WebVTT: a `WEBVTT` header, then blocks of `HH:MM:SS.mmm --> HH:MM:SS.mmm` and text.
    static func vtt(_ text: String) throws -> [Cue] {
        var all = blocks(text)
        guard let header = all.first, header.first == "WEBVTT" else {
            throw Unexpected(description: "WebVTT does not start with WEBVTT: \(text.prefix(40).debugDescription)")
        }
        all.removeFirst()
        return try all.map { lines in
            // A cue may carry an identifier line before its timing.
            let timing = lines.firstIndex { $0.contains("-->") } ?? 0
            guard lines.count > timing + 1 else { throw Unexpected(description: "WebVTT cue without text: \(lines)") }
            return try cue(timing: lines[timing], separator: ".", text: lines[(timing + 1)...])
        }
    }

    /// Whether cues run forward in time: each starts no earlier than the one before ends,
    /// and none ends before it starts.
    static func isMonotonic(_ cues: [Cue]) -> Bool {
        zip([nil] + cues.map(Optional.some), cues).allSatisfy { previous, cue in
            cue.start <= cue.end && cue.start >= (previous?.end ?? 0)
        }
    }

    private static func blocks(_ text: String) -> [[String]] {
        text.replacingOccurrences(of: "\r\n", with: "\n")
            .components(separatedBy: "\n\n")
            .map { $0.split(separator: "\n").map(String.init) }
            .filter { !$0.isEmpty }
    }

    private static func cue(timing: String, separator: Character, text: ArraySlice<String>) throws -> Cue {
        let ends = timing.components(separatedBy: " --> ")
        guard ends.count == 2, let start = seconds(ends[0], separator), let end = seconds(ends[1], separator) else {
            throw Unexpected(description: "bad timing line \(timing.debugDescription)")
        }
        return Cue(start: start, end: end, text: text.joined(separator: " "))
    }

    /// "01:02:03,456" → 3723.456, or nil when not in that exact shape.
    static func seconds(_ stamp: String, _ separator: Character) -> Double? {
        let parts = stamp.split(separator: separator)
        guard parts.count == 2, parts[1].count == 3, let milliseconds = Int(parts[1]) else { return nil }
        let clock = parts[0].split(separator: ":")
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hours = Int(clock[0]), let minutes = Int(clock[1]), let secs = Int(clock[2]) else { return nil }
        return Double(hours * 3600 + minutes * 60 + secs) + Double(milliseconds) / 1000
    }
}
