import Foundation
import Testing
@testable import VoiceJournalTranscription

/// An answer is bounded where it is read: no word past 1,000 characters, no time outside the
/// audio it answers.
@Suite struct AnswerBoundsTests {
    @Test func aFiveMegabyteWordIsCutWhereTheAnswerIsRead() throws {
        let word = String(repeating: "a", count: 5 << 20)
        let body = try JSONSerialization.data(withJSONObject: [
            "text": " hello \(word) there", "language": "english", "duration": 3.0,
            "segments": [["start": 0.0, "end": 3.0, "text": " hello \(word) there"]],
            "words": [["word": "hello", "start": 0.0, "end": 0.5], ["word": word, "start": 0.5, "end": 2.5],
                      ["word": "there", "start": 2.5, "end": 3.0]],
        ])
        let result = try WireFormat.decodeResult(body, format: .verboseJSON, model: "whisper-1", audioSeconds: 3)
        let longest = (result.text + " " + result.segments.map(\.text).joined(separator: " ")).split(separator: " ").map(\.count).max() ?? 0
        #expect(longest == WireFormat.longestWord + 1, "a word is its first 1,000 characters and an ellipsis")
        #expect(result.text.hasPrefix(" hello aaa") && result.text.hasSuffix("… there"))
        #expect(result.segments.first?.words?.map(\.word.count) == [5, 1001, 5])
        // Text with no such word is left as it is.
        #expect(WireFormat.capped(" Grüße, 你好 — ok ") == " Grüße, 你好 — ok ")
    }

    @Test func timesOutsideTheAudioAreClampedOrLeftOutForTheAudit() throws {
        let body = Data("""
            {"text": " in it outside", "segments": [
              {"start": -3, "end": 1.0, "text": " in"}, {"start": 1.0, "end": 4.5, "text": " it"},
              {"start": 9e15, "end": 9.1e15, "text": " outside"}]}
            """.utf8)
        let result = try WireFormat.decodeResult(body, format: .verboseJSON, model: "whisper-1", audioSeconds: 4)
        #expect(result.segments.map(\.start) == [0, 1] && result.segments.map(\.end) == [1, 4])
        #expect(result.outsideAudio.map(\.text) == [" outside"] && result.outsideAudio.first?.start == 4)
        #expect(result.text == "in it")
    }
}
