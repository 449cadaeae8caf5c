import Foundation
import VoiceJournalBatch
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct SidecarTests {
    let transcript = Transcript(
        recordingId: 1, text: "Hello there. General Kenobi.", language: "english", model: "whisper-1",
        segments: [.init(start: 0, end: 1.25, text: " Hello there."),
                   .init(start: 1.25, end: 3723.5, text: " General Kenobi."),
                   .init(start: 3723.5, end: 3724, text: "  ")])

    @Test func subRipNumbersCuesWithCommaMilliseconds() {
        #expect(Sidecar.render(.srt, transcript: transcript, durationSeconds: 3724) == """
            1
            00:00:00,000 --> 00:00:01,250
            Hello there.

            2
            00:00:01,250 --> 01:02:03,500
            General Kenobi.

            """)
    }

    @Test func webVTTHasAHeaderAndDotMilliseconds() {
        #expect(Sidecar.render(.vtt, transcript: transcript, durationSeconds: 3724) == """
            WEBVTT

            00:00:00.000 --> 00:00:01.250
            Hello there.

            00:00:01.250 --> 01:02:03.500
            General Kenobi.

            """)
    }

    @Test func textAndJSONCarryTheTranscript() throws {
        #expect(Sidecar.render(.txt, transcript: transcript, durationSeconds: 0) == "Hello there. General Kenobi.\n")
        let json = try #require(try JSONSerialization.jsonObject(
            with: Data(Sidecar.render(.json, transcript: transcript, durationSeconds: 0).utf8)) as? [String: Any])
        #expect(json["text"] as? String == "Hello there. General Kenobi.")
        #expect(json["language"] as? String == "english")
        #expect((json["segments"] as? [[String: Any]])?.count == 2)
    }

    @Test func aTranscriptWithoutSegmentsBecomesOneCue() {
        let plain = Transcript(recordingId: 1, text: "Just text.", model: "gpt-4o-transcribe")
        #expect(Sidecar.render(.srt, transcript: plain, durationSeconds: 4.5) == "1\n00:00:00,000 --> 00:00:04,500\nJust text.\n")
    }

    @Test func writesNextToTheAudioFile() throws {
        let folder = try TemporaryFolder()
        let audio = folder.path("Grüße an Oma.wav")
        let written = try Sidecar.write([.srt, .txt], for: audio, transcript: transcript, durationSeconds: 3724)
        #expect(written.map(\.lastPathComponent) == ["Grüße an Oma.srt", "Grüße an Oma.txt"])
        #expect(try String(contentsOf: written[1], encoding: .utf8) == "Hello there. General Kenobi.\n")
    }

    @Test func parsesTheSidecarList() throws {
        #expect(try SidecarFormat.parseList("srt, TXT,srt").get() == [.srt, .txt])
        guard case .failure(let error) = SidecarFormat.parseList("srt,docx") else {
            Issue.record("docx should be refused")
            return
        }
        #expect(error.name == "docx")
    }
}

/// Sidecars of a transcript the review marked: each unheard stretch in its place, the
/// confidence and left-out text in the JSON only.
@Suite(.onTestThreads) struct ReviewedSidecarTests {
    let transcript = Transcript(
        recordingId: 1, text: "I went down to the harbour. The ferry was late again.", language: "english", model: "whisper-1",
        segments: [.init(start: 2, end: 5.5, text: " I went down to the harbour.", avgLogprob: -0.3, noSpeechProb: 0.02,
                         words: [.init(start: 2, end: 2.2, word: " I"), .init(start: 2.2, end: 2.6, word: " went")]),
                   .init(start: 140, end: 143, text: " The ferry was late again.", avgLogprob: -1.3)],
        unheard: [.init(start: 134.2, end: 137.1)],
        leftOut: [.init(start: 60, end: 63, text: " Thanks for watching!", reason: "silence")],
        audioSentSeconds: 12.5, resends: 1)

    @Test func theTextMarksAnUnheardStretchBetweenTheWordsAroundIt() {
        #expect(Sidecar.render(.txt, transcript: transcript, durationSeconds: 150)
                == "I went down to the harbour. [unheard 02:14–02:18] The ferry was late again.\n")
    }

    @Test func subtitlesGiveAnUnheardStretchACueOfItsOwnInTimeOrder() {
        #expect(Sidecar.render(.srt, transcript: transcript, durationSeconds: 150) == """
            1
            00:00:02,000 --> 00:00:05,500
            I went down to the harbour.

            2
            00:02:14,200 --> 00:02:17,100
            [unheard 02:14–02:18]

            3
            00:02:20,000 --> 00:02:23,000
            The ferry was late again.

            """)
        #expect(Sidecar.render(.vtt, transcript: transcript, durationSeconds: 150).contains("""
            00:02:14.200 --> 00:02:17.100
            [unheard 02:14–02:18]
            """))
    }

    @Test func theJSONCarriesConfidenceWordsAndTheAudit() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(Sidecar.render(.json, transcript: transcript,
                                                                                           durationSeconds: 150).utf8)) as? [String: Any])
        let segments = try #require(json["segments"] as? [[String: Any]])
        #expect(segments.count == 2, "an unheard stretch is not a segment")
        #expect(segments.map { $0["lowConfidence"] as? Bool } == [false, true])
        #expect(segments[0]["avgLogprob"] as? Double == -0.3 && segments[1]["noSpeechProb"] is NSNull)
        #expect((segments[0]["words"] as? [[String: Any]])?.count == 2 && segments[1]["words"] is NSNull)
        #expect((json["unheard"] as? [[String: Any]])?.first?["end"] as? Double == 137.1)
        #expect((json["leftOut"] as? [[String: Any]])?.first?["reason"] as? String == "silence")
        #expect(json["audioSentSeconds"] as? Double == 12.5 && json["resends"] as? Int == 1)
        #expect(!Sidecar.render(.txt, transcript: transcript, durationSeconds: 150).contains("watching"))
    }
}
