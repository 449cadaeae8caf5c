import Foundation
import VoiceJournalPages
import VoiceJournalStore
import VoiceJournalTerminal

/// A file written next to an audio file, made from its stored transcript.
package enum SidecarFormat: String, CaseIterable, Sendable {
    case txt, srt, vtt, json

    /// Parses `txt,srt,vtt,json` (any order, any case), or names the first unknown one.
    package static func parseList(_ text: String) -> Result<[SidecarFormat], SidecarListError> {
        var formats: [SidecarFormat] = []
        for piece in text.split(separator: ",") {
            let name = piece.trimmingCharacters(in: .whitespaces).lowercased()
            guard let format = SidecarFormat(rawValue: name) else { return .failure(SidecarListError(name: name)) }
            if !formats.contains(format) { formats.append(format) }
        }
        return .success(formats)
    }
}

/// An unknown name in a `--sidecar` list.
package struct SidecarListError: Error, CustomStringConvertible {
    package let name: String
    package var description: String {
        "unknown sidecar format '\(name)'; use any of \(SidecarFormat.allCases.map(\.rawValue).joined(separator: ","))"
    }
}

/// Renders transcripts as plain text, SubRip, WebVTT or JSON, from the stored segments.
package enum Sidecar {
    /// Where the sidecar of `audio` goes: same folder, same name, the format's extension.
    package static func url(for audio: URL, format: SidecarFormat) -> URL {
        audio.deletingPathExtension().appendingPathExtension(format.rawValue)
    }

    /// Writes each format next to `audio` (atomically) and returns the files written.
    @discardableResult
    package static func write(_ formats: [SidecarFormat], for audio: URL, transcript: Transcript,
                             durationSeconds: Double) throws -> [URL] {
        try formats.map { format in
            let url = url(for: audio, format: format)
            try Data(render(format, transcript: transcript, durationSeconds: durationSeconds).utf8)
                .write(to: url, options: .atomic)
            return url
        }
    }

    /// The sidecar's text.
    package static func render(_ format: SidecarFormat, transcript: Transcript, durationSeconds: Double) -> String {
        let cues = cues(transcript, durationSeconds: durationSeconds)
        switch format {
        case .txt:
            return TranscriptReading.text(transcript).trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        case .srt:
            return cues.enumerated().map { index, cue in
                "\(index + 1)\n\(timestamp(cue.start, ",")) --> \(timestamp(cue.end, ","))\n\(cue.text)\n"
            }.joined(separator: "\n")
        case .vtt:
            return "WEBVTT\n\n" + cues.map { cue in
                "\(timestamp(cue.start, ".")) --> \(timestamp(cue.end, "."))\n\(cue.text)\n"
            }.joined(separator: "\n")
        case .json:
            let segments = spoken(transcript, durationSeconds: durationSeconds)
            let document = JSONDocument(text: transcript.text, language: transcript.language, model: transcript.model,
                                        segments: segments, unheard: transcript.unheard, leftOut: transcript.leftOut,
                                        audioSentSeconds: transcript.audioSentSeconds, resends: transcript.resends,
                                        translation: transcript.translation, translationSegments: transcript.translationSegments,
                                        translationNote: transcript.translationNote)
            return ((try? JSONText.encode(document)) ?? "{}") + "\n"
        }
    }

    /// The timed cues: the stored segments with their text trimmed (Whisper starts each with
    /// a space) and empty ones dropped, one cue for the whole file when the model gave none;
    /// and each unheard stretch as its own cue, `[unheard 02:14–02:17]`, in time order.
    static func cues(_ transcript: Transcript, durationSeconds: Double) -> [Transcript.Segment] {
        let spoken = spoken(transcript, durationSeconds: durationSeconds)
        guard !transcript.unheard.isEmpty else { return spoken }
        let gaps = transcript.unheard.map { gap in
            Transcript.Segment(start: gap.start, end: max(gap.start, gap.end), text: TranscriptReading.unheard(gap))
        }
        // Stable: a gap starting where a segment starts goes first, as in `entry show`.
        return (gaps.map { (0, $0) } + spoken.map { (1, $0) })
            .enumerated().sorted { ($0.element.1.start, $0.element.0, $0.offset) < ($1.element.1.start, $1.element.0, $1.offset) }
            .map(\.element.1)
    }

    /// The segments that hold words, trimmed, with their confidence and words kept.
    private static func spoken(_ transcript: Transcript, durationSeconds: Double) -> [Transcript.Segment] {
        let cues = transcript.segments.compactMap { segment -> Transcript.Segment? in
            let text = segment.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return nil }
            var cue = segment
            cue.text = text
            cue.end = max(segment.start, segment.end)
            return cue
        }
        let text = transcript.text.trimmingCharacters(in: .whitespacesAndNewlines)
        if cues.isEmpty && !text.isEmpty {
            return [Transcript.Segment(start: 0, end: max(durationSeconds, 1), text: text)]
        }
        return cues
    }

    /// `HH:MM:SS,mmm` (SubRip) or `HH:MM:SS.mmm` (WebVTT).
    static func timestamp(_ seconds: Double, _ separator: Character) -> String {
        Clock.text(seconds, .subtitle(separator: separator))
    }

    /// The `.json` sidecar: the text, its segments (with confidence and words), the
    /// review's findings and the translation, every key written (`null` or empty when there is nothing).
    private struct JSONDocument: Encodable {
        let text: String
        let language: String?
        let model: String
        let segments: [Transcript.Segment]
        let unheard: [Transcript.Gap]
        let leftOut: [Transcript.LeftOut]
        let audioSentSeconds: Double?
        let resends: Int
        /// The English translation (null when none was asked or came back), its segments, and
        /// why it is missing when one was asked.
        let translation: String?
        let translationSegments: [Transcript.Segment]
        let translationNote: String?

        enum CodingKeys: String, CodingKey {
            case text, language, model, segments, unheard, leftOut, audioSentSeconds, resends
            case translation, translationSegments, translationNote
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(text, forKey: .text)
            try container.encodeIfPresent(language, forKey: .language)
            try container.encode(model, forKey: .model)
            try container.encode(segments, forKey: .segments)
            try container.encode(unheard, forKey: .unheard)
            try container.encode(leftOut, forKey: .leftOut)
            try container.encode(audioSentSeconds, forKey: .audioSentSeconds)
            try container.encode(resends, forKey: .resends)
            try container.encode(translation, forKey: .translation)
            try container.encode(translationSegments, forKey: .translationSegments)
            try container.encode(translationNote, forKey: .translationNote)
        }
    }
}
