import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

/// What one upload's answer becomes once checked against where the speech is: the segments
/// kept (on the clock of the stretch uploaded), what was left out and why, the stretches of
/// speech no words came back for, and what it cost.
struct ReviewedAnswer {
    var result: TranscriptionResult
    var unheard: [TimeMap.Span] = []
    var leftOut: [LeftOutSegment] = []
    /// Seconds of audio uploaded, re-sends included.
    var sentSeconds: Double
    /// Uploads made again for coverage (a stretch or a loop sent on its own).
    var resends = 0
}

extension Worker {
    /// Checks an answer: its times go back to the stretch's clock through `map`; segments over
    /// silence, judged no speech by the model, or looping are left out; each stretch of speech
    /// no kept segment covers, and each loop's region, is sent again on its own, once, and
    /// what comes back is merged in time order; a stretch still without words is unheard.
    /// `source` is the file that was uploaded (its clock is the map's upload clock). Without
    /// a map (`--no-trim`, or speech not measured) the answer is kept as the server gave it.
    func reviewed(_ result: TranscriptionResult, source: URL, map: TimeMap?, sentSeconds: Double,
                  request: TranscriptionRequest, jobId: Int64, on connection: WhisperConnection) -> ReviewedAnswer {
        // What the server placed outside the audio was set aside as the answer was read.
        if !result.outsideAudio.isEmpty {
            runner.logger.warning("left out segments the server placed outside the audio",
                                  metadata: ["job": "\(jobId)", "segments": "\(result.outsideAudio.count)"])
        }
        guard let map, !map.speech.isEmpty else {
            return ReviewedAnswer(result: result, leftOut: result.outsideAudio.map { LeftOutSegment(segment: $0, reason: .outsideAudio) },
                                  sentSeconds: sentSeconds)
        }
        let outsideMapped = result.outsideAudio.map { segment in
            var segment = segment
            segment.start = map.original(segment.start, isEnd: true)
            segment.end = segment.start
            return LeftOutSegment(segment: segment, reason: .outsideAudio)
        }
        let review = TranscriptReview()
        let answered = result.mapped(through: map)
        guard !answered.segments.isEmpty else {
            var reviewed = reviewedText(answered, source: source, map: map, request: request, jobId: jobId, on: connection)
            reviewed.leftOut += outsideMapped
            return reviewed
        }
        let verdict = review.review(answered.segments, speech: map.speechRanges)
        var reviewed = ReviewedAnswer(result: answered, leftOut: outsideMapped + verdict.leftOut, sentSeconds: map.sentSeconds)
        var kept = verdict.kept
        let regions = verdict.uncovered.map { ($0, false) } + verdict.loops.map { ($0, true) }
        for (index, (region, isLoop)) in regions.enumerated() where runner.stopReason == nil {
            let padded = max(region.lowerBound - Self.resendEdgeSeconds, 0)..<(region.upperBound + Self.resendEdgeSeconds)
            let upload = map.upload(padded.lowerBound)..<min(map.upload(padded.upperBound), map.sentSeconds)
            guard upload.upperBound - upload.lowerBound >= 0.1,
                  let again = resend(source, upload: upload, request: request, name: "resend\(index + 1)",
                                     jobId: jobId, on: connection) else { continue }
            reviewed.resends += 1
            reviewed.sentSeconds += upload.upperBound - upload.lowerBound
            let mapped = again.segments.flatMap { $0.shifted(by: upload.lowerBound).mapped(through: map) }
            let speech = map.speechRanges.compactMap { range -> Range<Double>? in
                let clipped = range.clamped(to: padded)
                return clipped.isEmpty ? nil : clipped
            }
            let second = review.review(mapped, speech: speech)
            reviewed.leftOut += second.leftOut
            if isLoop {
                // The loop came back as words this time: they replace the cut loop.
                if second.loops.isEmpty && !second.kept.isEmpty {
                    kept = TranscriptReview.merged(kept, with: second.kept, replacing: region)
                }
            } else {
                // What came back for the stretch heard alone replaces the fragments the first
                // answer placed inside it ("Five," of "five, five"), unless it says nothing new.
                let heard = Self.unheardBefore(second.kept, besides: kept, near: region)
                kept = TranscriptReview.merged(Self.split(kept, at: heard.map(\.start)), with: heard,
                                               replacing: heard.isEmpty ? nil : region)
            }
        }
        reviewed.unheard = review.review(kept, speech: map.speechRanges).uncovered.map { TimeMap.Span(start: $0.lowerBound, end: $0.upperBound) }
        if kept != answered.segments {
            reviewed.result.segments = kept
            reviewed.result.text = kept.map { $0.text.trimmingCharacters(in: .whitespacesAndNewlines) }
                .filter { !$0.isEmpty }.joined(separator: " ")
        }
        if reviewed.resends > 0 {
            runner.logger.info("sent again for coverage", metadata: ["job": "\(jobId)", "uploads": "\(reviewed.resends)",
                                                                     "unheard": "\(reviewed.unheard.count)"])
        }
        return reviewed
    }

    /// The segments, each one that runs across one of `times` cut there by its words (a word
    /// goes to the side its middle is on), so that words heard again for a stretch inside a
    /// long segment are merged in time order, not after the whole segment.
    static func split(_ segments: [TranscriptionResult.Segment], at times: [Double]) -> [TranscriptionResult.Segment] {
        var result = segments
        for time in times {
            guard let index = result.firstIndex(where: { $0.start < time && time < $0.end }),
                  let words = result[index].words,
                  let cut = words.firstIndex(where: { ($0.start + $0.end) / 2 >= time }), cut > 0 else { continue }
            var parts = result[index].parts(beforeWords: [cut])
            // Each side ends and starts with its words, not at the segment's old edges.
            if let lastBefore = parts[0].words?.last { parts[0].end = lastBefore.end }
            result.replaceSubrange(index...index, with: parts)
        }
        return result
    }

    /// A re-send's segments, less those whose words the first answer already has next to the
    /// stretch (within 2 s): the model heard them and only timed them a little off, and
    /// merging them again would say them twice.
    static func unheardBefore(_ resent: [TranscriptionResult.Segment], besides kept: [TranscriptionResult.Segment],
                              near region: Range<Double>) -> [TranscriptionResult.Segment] {
        let nearby = kept.filter { $0.end >= region.lowerBound - 2 && $0.start <= region.upperBound + 2 }
            .flatMap { normalizedWords($0.text) }
        return resent.filter { segment in
            let words = normalizedWords(segment.text)
            guard !words.isEmpty, words.count <= nearby.count else { return !words.isEmpty }
            return !(0...(nearby.count - words.count)).contains { Array(nearby[$0..<($0 + words.count)]) == words }
        }
    }

    /// Words compared as said: lowercase, without punctuation, a number up to twenty in
    /// digits as its word ("5" and "Five," are one word said).
    private static func normalizedWords(_ text: String) -> [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map { word in
            Int(word).flatMap { $0 >= 0 && $0 < numberWords.count ? numberWords[$0] : nil } ?? String(word)
        }
    }

    private static let numberWords = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                                      "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
                                      "nineteen", "twenty"]

    /// Audio kept around a stretch sent again on its own, so its first and last words are whole.
    static let resendEdgeSeconds = 0.2

    /// An answer with text only (the gpt-4o transcribe models' `json`): times cannot be
    /// checked, but the number of words can. Far too few for the speech sent, against the
    /// recording's own rate (its other chunks' words per second of speech, once 10 s of them
    /// are in), and the upload is sent again in two halves; their words are kept when there
    /// are more of them. A recording sent in one upload has no rate of its own to judge by.
    private func reviewedText(_ result: TranscriptionResult, source: URL, map: TimeMap, request: TranscriptionRequest,
                              jobId: Int64, on connection: WhisperConnection) -> ReviewedAnswer {
        var reviewed = ReviewedAnswer(result: result, sentSeconds: map.sentSeconds)
        let speechSeconds = map.speech.reduce(0) { $0 + $1.seconds }
        let words = Self.wordCount(result.text)
        guard let expected = ownWordRate(besides: jobId),
              TranscriptReview.tooFewWords(words: words, speechSeconds: speechSeconds, expectedWordsPerSecond: expected),
              map.sentSeconds >= 2 * Self.shortestHalfSeconds else { return reviewed }
        let middle = map.upload(Self.speechMiddle(map))
        var texts: [String] = []
        for (index, half) in [0..<middle, middle..<map.sentSeconds].enumerated() {
            guard half.upperBound - half.lowerBound >= Self.shortestHalfSeconds,
                  let again = resend(source, upload: half, request: request, name: "half\(index + 1)", jobId: jobId, on: connection)
            else { continue }
            reviewed.resends += 1
            reviewed.sentSeconds += half.upperBound - half.lowerBound
            texts.append(again.text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let joined = texts.filter { !$0.isEmpty }.joined(separator: " ")
        if Self.wordCount(joined) > words { reviewed.result.text = joined }
        return reviewed
    }

    private static let shortestHalfSeconds = 1.0

    /// Words per second of speech in the recording's other finished chunks, when they hold
    /// at least 10 s of speech said at half a word a second or more; nil otherwise (or when
    /// the store cannot say).
    private func ownWordRate(besides jobId: Int64) -> Double? {
        guard let siblings = try? queue.finishedSiblings(ofChunk: jobId) else { return nil }
        var words = 0, seconds = 0.0
        for sibling in siblings {
            guard let result = sibling.result, let map = TimeMap(json: sibling.timeMap) else { continue }
            words += Self.wordCount(result.text)
            seconds += map.speech.reduce(0) { $0 + $1.seconds }
        }
        // Other chunks that themselves came back with almost no words are no measure of speech.
        let rate = seconds >= 10 ? Double(words) / seconds : 0
        return rate >= 0.5 ? rate : nil
    }

    /// The time on the map's clock by which half of its speech was said.
    private static func speechMiddle(_ map: TimeMap) -> Double {
        let half = map.speech.reduce(0) { $0 + $1.seconds } / 2
        var heard = 0.0
        for span in map.speech {
            if heard + span.seconds >= half { return span.start + (half - heard) }
            heard += span.seconds
        }
        return map.speech.last?.end ?? 0
    }

    static func wordCount(_ text: String) -> Int {
        text.split { $0.isWhitespace }.count
    }

    /// Uploads `upload` (seconds of `source`'s clock) on its own, encoded as a short FLAC in
    /// the journal's tmp/; nil when it could not be made or the server did not answer (the
    /// stretch then stays as the first answer left it: a re-send never fails the job).
    private func resend(_ source: URL, upload: Range<Double>, request: TranscriptionRequest, name: String,
                        jobId: Int64, on connection: WhisperConnection) -> TranscriptionResult? {
        let files = ChunkFiles(home: queue.home, owner: runner.owner)
        let url = files.folder.appendingPathComponent("\(runner.owner.pid)-\(runner.owner.nonce)-job\(jobId)-\(name).flac")
        defer { ChunkFiles.remove(url) }
        do {
            try files.createFolder()
            let rate = Double(ChunkFiles.sampleRate)
            let range = frameCount(seconds: upload.lowerBound, rate: rate)..<frameCount(seconds: upload.upperBound, rate: rate)
            let chunk = AudioChunk(startSample: range.lowerBound, endSample: range.upperBound, sampleRate: ChunkFiles.sampleRate)
            try ChunkFiles.encode(source, chunks: [chunk], to: [url], codec: .flac) { runner.stopReason != nil }
            var again = request
            again.file = url
            again.filename = (request.filename as NSString).deletingPathExtension + ".\(name).flac"
            again.audioSeconds = upload.upperBound - upload.lowerBound
            return try connection.transcribe(again)
        } catch {
            runner.logger.debug("a re-send for coverage failed", metadata: ["job": "\(jobId)", "error": "\(error)"])
            return nil
        }
    }
}

extension Transcript.Segment {
    /// A reviewed segment as the store keeps it.
    init(_ segment: TranscriptionResult.Segment) {
        self.init(start: segment.start, end: segment.end, text: segment.text, avgLogprob: segment.avgLogprob,
                  noSpeechProb: segment.noSpeechProb,
                  words: segment.words.map { $0.map { Transcript.Word(start: $0.start, end: $0.end, word: $0.word) } })
    }
}

extension ReviewedAnswer {
    /// What the store keeps of the left-out text.
    var storedLeftOut: [Transcript.LeftOut] {
        leftOut.map { .init(start: $0.segment.start, end: $0.segment.end, text: $0.segment.text.trimmingCharacters(in: .whitespaces),
                            reason: $0.reason.rawValue) }
    }

    var storedUnheard: [Transcript.Gap] { unheard.map { .init(start: $0.start, end: $0.end) } }
}
