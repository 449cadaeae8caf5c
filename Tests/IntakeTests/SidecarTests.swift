import Foundation
import Intake
import Store
import Testing
import TestSupport

@Suite struct SidecarTests {
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
