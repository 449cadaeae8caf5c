import Foundation
import VoiceJournalPages
@testable import VoiceJournalStore
import VoiceJournalTerminal
import Testing

/// The ready commands that play a moment: one text for `search`, `entry show` and
/// `assignment show`, starting within a second before the segment, on a whole second.
@Suite struct PlayCommandTextTests {
    @Test(arguments: [(nil, 0), (0, 0), (0.4, 0), (1, 0), (1.5, 1), (2, 1), (291.3, 291), (291, 290), (3600.5, 3600),
                      (.nan, 0), (.infinity, 0)] as [(Double?, Double)])
    func playbackStartsWithinASecondBeforeTheSegment(segmentStart: Double?, start: Double) {
        #expect(PlaybackStart.seconds(before: segmentStart) == start)
        if let segmentStart, segmentStart.isFinite {
            #expect(start <= segmentStart && segmentStart - start <= 1 || start == 0 && segmentStart < 1)
        }
    }

    @Test func theCommandNamesWhatPlaysAndTheTimeAsAClock() {
        #expect(PlayCommandText.entry(12) == "voicejournal play 12")
        #expect(PlayCommandText.entry(12, at: 290) == "voicejournal play 12 --at 04:50")
        #expect(PlayCommandText.assignment(3, at: 61) == "voicejournal play --assignment 3 --at 01:01")
        #expect(PlayCommandText.recording(40, at: 3725) == "voicejournal play --recording 40 --at 1:02:05")
        #expect(PlayCommandText.entry(12, at: 0.9) == "voicejournal play 12", "whole seconds; 0 is left out")
    }

    @Test func aRecordingIsPlayedByWhatItBelongsTo() {
        var recording = Recording(id: 40, path: "/a.wav", sampleRate: 16000, channels: 1, format: "wav", state: .complete)
        #expect(PlayCommandText.recording(recording, at: 5) == "voicejournal play --recording 40 --at 00:05")
        recording.assignmentId = 3
        #expect(PlayCommandText.recording(recording) == "voicejournal play --assignment 3")
        recording.entryId = 12
        #expect(PlayCommandText.recording(recording) == "voicejournal play 12")
    }

    static func hit(entry: Int64?, assignment: Int64? = nil, recording: Int64?, at start: Double? = nil) -> SearchHit {
        SearchHit(entryId: entry, assignmentId: assignment, recordingId: recording, journal: "Trips", title: nil, mood: nil,
                  createdAt: JournalPagesTests.local(23, 12), matchedIn: recording == nil ? "entry" : "transcript",
                  snippet: "the [ferry] left", segmentStart: start, rank: -1)
    }

    @Test func eachHitInARecordingGetsItsCommandAndTypedTextNone() {
        #expect(PlayCommandText.hit(Self.hit(entry: 12, recording: 9, at: 291.3)) == "voicejournal play 12 --at 04:51")
        #expect(PlayCommandText.hit(Self.hit(entry: nil, assignment: 3, recording: 9, at: 0.5)) == "voicejournal play --assignment 3")
        #expect(PlayCommandText.hit(Self.hit(entry: nil, recording: 40, at: 3601.2)) == "voicejournal play --recording 40 --at 1:00:01")
        #expect(PlayCommandText.hit(Self.hit(entry: 12, recording: nil)) == nil)
    }

    @Test func searchPrintsTheCommandUnderItsHitInTheMatchColumn() throws {
        let shown = SearchResults.text([Self.hit(entry: 12, recording: 9, at: 291.3), Self.hit(entry: 7, recording: nil)], bold: false)
        let lines = shown.split(separator: "\n").map(String.init)
        #expect(lines.count == 4, "\(shown)")
        let column = try #require(lines[0].range(of: "MATCH")).lowerBound.utf16Offset(in: lines[0])
        #expect(lines[1].hasPrefix("#12 ") && lines[1].hasSuffix("@04:51 the [ferry] left"))
        #expect(lines[2] == String(repeating: " ", count: column) + "voicejournal play 12 --at 04:51")
        #expect(lines[3].hasPrefix("#7 "), "a hit in typed text has no command")
    }

    @Test func searchJSONGivesEachHitItsPlayKey() throws {
        let rows = SearchResults.rows([Self.hit(entry: 12, recording: 9, at: 291.3), Self.hit(entry: 7, recording: nil)])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONText.encode(rows).utf8)) as? [[String: Any]])
        #expect(json.first?["play"] as? String == "voicejournal play 12 --at 04:51")
        #expect(json.first?["snippet"] as? String == "the [ferry] left" && json.first?["segmentStart"] as? Double == 291.3)
        #expect(json.last?["play"] is NSNull, "every hit has the key")
    }

    static let segments = [Transcript.Segment(start: 0.4, end: 2, text: " We walked down."),
                           Transcript.Segment(start: 291.3, end: 295, text: " The ferry left.")]

    static func details(entry: Int64?, assignment: Int64?) -> RecordingDetails {
        RecordingDetails(recording: Recording(id: 9, path: "/in/clip.wav", durationSeconds: 300, sampleRate: 16000, channels: 1,
                                              format: "wav", state: .complete, entryId: entry, assignmentId: assignment),
                         transcript: Transcript(id: 3, recordingId: 9, text: "We walked down. The ferry left.", model: "whisper-1",
                                                segments: segments),
                         answers: nil)
    }

    @Test func entryShowHasAPlayLineAndEveryTimedSegmentItsCommandInJSON() throws {
        var entry = JournalPagesTests.voiceEntry(id: 12)
        entry.segments = Self.segments
        let page = EntryPage(EntryView(entry: entry, recording: Self.details(entry: 12, assignment: nil)), waveform: nil)
        let shown = page.text(color: false)
        #expect(shown.contains("\n       (the audio file cannot be read)\nPlay:  voicejournal play 12\n"), "\(shown)")
        let text = try JSONText.encode(page)
        #expect(text.components(separatedBy: "\"segments\"").count == 3, "the entry's and the transcript's key, each once")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let recording = try #require(json["recording"] as? [String: Any])
        #expect(recording["play"] as? String == "voicejournal play 12")
        let transcript = try #require(recording["transcript"] as? [String: Any])
        let commands = ["voicejournal play 12", "voicejournal play 12 --at 04:51"]
        #expect((transcript["segments"] as? [[String: Any]])?.compactMap { $0["play"] as? String } == commands)
        #expect((transcript["segments"] as? [[String: Any]])?.first?["text"] as? String == " We walked down.", "the segment's own keys stay")
        #expect(transcript["text"] as? String == "We walked down. The ferry left." && transcript["unheard"] is [Any])
        #expect((json["segments"] as? [[String: Any]])?.compactMap { $0["play"] as? String } == commands)
    }

    @Test func assignmentShowPlaysTheAnswerByItsAssignment() throws {
        let answered = JournalPagesTests.assignment(id: 3, status: .answered, answeredAt: JournalPagesTests.local(21, 9),
                                                    transcript: "We walked down. The ferry left.")
        let page = AssignmentPage(AssignmentView(assignment: answered, recording: Self.details(entry: nil, assignment: 3)), waveform: nil)
        #expect(page.text(link: "L", color: false).contains("\nPlay:  voicejournal play --assignment 3\n"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONText.encode(page).utf8)) as? [String: Any])
        let recording = try #require(json["recording"] as? [String: Any])
        #expect(recording["play"] as? String == "voicejournal play --assignment 3")
        let segments = (recording["transcript"] as? [String: Any])?["segments"] as? [[String: Any]]
        #expect(segments?.compactMap { $0["play"] as? String } == ["voicejournal play --assignment 3", "voicejournal play --assignment 3 --at 04:51"])
    }
}
