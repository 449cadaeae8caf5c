import Foundation
import VoiceJournalPages
@testable import VoiceJournalStore
@testable import VoiceJournalTerminal
import Testing

/// The journal's pages and listings as the commands print them (`entry show`, `journal show`,
/// `assignment show`, `search`, the listings), drawn from values without a database: the
/// same lines the command-line tests expect of the built binary.
@Suite struct JournalPagesTests {
    /// A local time, so the pages show it as written whatever the time zone.
    static func local(_ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        Calendar.current.date(from: DateComponents(year: 2026, month: 11, day: day, hour: hour, minute: minute)) ?? Date()
    }

    static let segments = [Transcript.Segment(start: 0, end: 1.5, text: " Manuscript of"),
                           Transcript.Segment(start: 1.5, end: 3.25, text: " clip, Anneliese.")]

    static func voiceEntry(id: Int64 = 4) -> EntryDetails {
        EntryDetails(id: id, journal: "Trips", kind: .voice, title: "clip.wav", content: "", mood: nil, theme: nil,
                     createdAt: local(23, 12), recordingId: 2, audioPath: "/in/clip.wav", durationSeconds: 1,
                     transcript: "Manuscript of clip, Anneliese.", transcriptionState: .done)
    }

    static func recording(answers: AssignmentSummary? = nil) -> RecordingDetails {
        let recording = Recording(id: 2, path: "/in/clip.wav", durationSeconds: 1, sampleRate: 16000, channels: 1, format: "wav",
                                  state: .complete, entryId: 4)
        let transcript = Transcript(id: 3, recordingId: 2, text: "Manuscript of clip, Anneliese.", model: "whisper-1", segments: segments)
        return RecordingDetails(recording: recording, transcript: transcript, answers: answers)
    }

    static func assignment(id: Int64 = 1, status: AssignmentStatus, answeredAt: Date? = nil, transcript: String? = nil) -> AssignmentSummary {
        AssignmentSummary(id: id, questionId: 1, question: "Where did you grow up?", journal: "Rose", personId: 2, person: "Grandma Rose",
                          status: status, linkToken: "TOKEN", createdAt: local(20, 12), sentAt: nil, answeredAt: answeredAt,
                          recordingId: transcript == nil ? nil : 1, transcript: transcript)
    }

    // MARK: entry show

    @Test func anEntryShowsItsRecordingAndItsTranscriptOneSegmentALine() {
        let original = EntryOriginal(text: "Transcript of clip.", segments: [], correctedAt: Self.local(23, 12))
        let page = EntryPage(EntryView(entry: Self.voiceEntry(), recording: Self.recording(), original: original), waveform: nil)
        let shown = page.text(color: false)
        #expect(shown.contains("[00:00] Manuscript of\n[00:01] clip, Anneliese."), "\(shown)")
        #expect(shown.contains("Audio: /in/clip.wav") && shown.contains("1.0 s · wav · 16000 Hz"), "\(shown)")
        #expect(shown.contains("Corrected: 2026-11-23 12:00"), "\(shown)")
        #expect(shown.hasPrefix("#4  2026-11-23 12:00  Trips  voice\nTitle: clip.wav\nAudio: "), "\(shown)")
        #expect(shown.contains("       (the audio file cannot be read)"))
    }

    @Test func theOriginalIsShownAsFirstStoredOrSaidToBeThereNone() {
        var view = EntryView(entry: Self.voiceEntry(), recording: Self.recording(), original: nil)
        #expect(EntryPage(view, waveform: nil).originalText() == "Entry #4 was never corrected.")
        view.original = EntryOriginal(text: "Transcript of clip.", segments: [.init(start: 0, end: 1.5, text: " Transcript of"),
                                                                               .init(start: 1.5, end: 3, text: " clip.")],
                                      correctedAt: Self.local(23, 12))
        let original = EntryPage(view, waveform: nil).originalText()
        #expect(original == "#4 as first stored (corrected 2026-11-23 12:00)\n\n[00:00] Transcript of\n[00:01] clip.")
    }

    @Test func aTypedEntryIsEscapedButKeepsItsOwnLineBreaks() {
        let entry = EntryDetails(id: 2, journal: "Personal", kind: .text, title: "T\u{1B}[1m", content: "Line one\nline two \u{1B}]0;t\u{7}",
                                 mood: .happy, theme: .work, createdAt: Self.local(23, 12))
        let shown = EntryPage(EntryView(entry: entry), waveform: nil).text(color: false)
        #expect(shown == "#2  2026-11-23 12:00  Personal  text\nTitle: T\\e[1m\nMood:  happy\nTheme: work\n\nLine one\nline two \\e]0;t\\u{7}")
    }

    @Test func theJSONDocumentHasTheEntrysOwnKeysAndTheRestBeside() throws {
        let page = EntryPage(EntryView(entry: Self.voiceEntry(), recording: Self.recording()),
                             waveform: [Waveform.Column(peak: 0.5, rms: 0.25)])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONText.encode(page).utf8)) as? [String: Any])
        #expect(json["id"] as? Int == 4 && json["transcript"] as? String == "Manuscript of clip, Anneliese.")
        #expect(json["waveform"] as? [Double] == [0.25])
        #expect(json["original"] is NSNull, "every key is written")
        #expect(((json["recording"] as? [String: Any])?["recording"] as? [String: Any])?["path"] as? String == "/in/clip.wav")
    }

    // MARK: assignment show

    @Test func anAnsweredAssignmentShowsItsLinkAndTimedAnswer() {
        let answered = Self.assignment(status: .answered, answeredAt: Self.local(21, 9, 30), transcript: "Manuscript of clip, Anneliese.")
        let page = AssignmentPage(AssignmentView(assignment: answered, recording: Self.recording(answers: answered)), waveform: nil)
        let shown = page.text(link: "http://127.0.0.1:8787/a/TOKEN", color: false)
        #expect(shown.contains("Question #1: Where did you grow up?") && shown.contains("Link:    http://127.0.0.1:8787/a/TOKEN"), "\(shown)")
        #expect(shown.contains("Audio: ") && shown.contains("\n[00:00] Manuscript of\n[00:01] "), "\(shown)")
        #expect(shown.contains("Given:   2026-11-20 12:00, answered 2026-11-21 09:30"))
        #expect(shown.contains("Answers: question #1 \"Where did you grow up?\" (assignment #1, Grandma Rose)"))
    }

    @Test func anUnansweredAssignmentSaysHowToAnswerIt() throws {
        let page = AssignmentPage(AssignmentView(assignment: Self.assignment(id: 2, status: .pending)), waveform: nil)
        #expect(page.text(link: "L", color: false).hasSuffix("Link:    L\n\nNot answered yet: voicejournal answer 2"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONText.encode(page).utf8)) as? [String: Any])
        #expect(json.keys.sorted() == ["assignment", "deliveries"], "no recording, no waveform before the answer")
        #expect((json["deliveries"] as? [Any])?.isEmpty == true, "no email sent")
    }

    // MARK: journal show

    @Test func aJournalListsEachQuestionAsDraftAwaitingOrAnswered() {
        let answered = Self.assignment(status: .answered, answeredAt: Self.local(21, 9, 30), transcript: "Transcript of an answer.")
        var awaiting = Self.assignment(id: 2, status: .pending)
        awaiting.sentAt = Self.local(20, 9)
        let questions = [
            TimelineQuestion(id: 1, text: "Where did you grow up?", displayOrder: 1, createdAt: Self.local(20, 8), state: .answered, assignments: [answered]),
            TimelineQuestion(id: 2, text: "What was your first job?", displayOrder: 2, createdAt: Self.local(20, 8), state: .awaiting, assignments: [awaiting]),
            TimelineQuestion(id: 3, text: "Who taught you to cook?", displayOrder: 3, createdAt: Self.local(20, 8), state: .draft, assignments: []),
        ]
        let overview = JournalOverview(journal: Journal(id: 2, name: "Rose", dedicatedToPersonId: 2, createdAt: Self.local(23, 12)),
                                       dedicatedTo: Person(id: 2, name: "Grandma Rose", relationship: "grandmother"),
                                       questions: questions, entries: [])
        let lines = JournalPage.text(overview, now: Self.local(23, 12)).split(separator: "\n").map(String.init)
        #expect(lines.first == "Rose — kept for Grandma Rose — created 2026-11-23 12:00")
        let rows = lines.filter { $0.contains("#1 ") || $0.contains("#2 ") || $0.contains("#3 ") }
        #expect(rows.count == 3, "\(lines)")
        #expect(rows[0].contains("Where did you grow up?") && rows[0].contains("answered 2026-11-21 09:30 by Grandma Rose: \"Transcript of "))
        #expect(rows[1].contains("What was your first job?") && rows[1].hasSuffix("awaiting Grandma Rose for 3 days"))
        #expect(rows[2].contains("Who taught you to cook?") && rows[2].hasSuffix("draft"))
        #expect(lines.last == "No entries yet.")
    }

    @Test(arguments: [(59, "0 minutes"), (60, "1 minute"), (7200, "2 hours"), (86_400, "1 day"), (259_205, "3 days"), (-5, "0 minutes")] as [(Double, String)])
    func aWaitIsSaidInWholeUnits(seconds: Double, said: String) {
        #expect(JournalPage.span(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: seconds)) == said)
    }

    @Test func anAnswerBeginsWithItsFirstEightWords() {
        #expect(JournalPage.firstWords("one two  three") == "\"one two three\"")
        #expect(JournalPage.firstWords("1 2 3 4 5 6 7 8 9") == "\"1 2 3 4 5 6 7 8…\"")
    }

    // MARK: search and listings

    static func hit(entry: Int64?, assignment: Int64? = nil, snippet: String, at start: Double? = nil) -> SearchHit {
        SearchHit(entryId: entry, assignmentId: assignment, recordingId: 9, journal: "Trips", title: nil, mood: nil,
                  createdAt: local(23, 12), matchedIn: start == nil ? "entry" : "transcript", snippet: snippet, segmentStart: start, rank: -1)
    }

    @Test func searchHitsSayWhereTheMatchIs() {
        let shown = SearchResults.text([Self.hit(entry: 4, snippet: "[Manuscript] of clip, Anneliese.", at: 0.4),
                                        Self.hit(entry: nil, assignment: 1, snippet: "[Transcript] of it", at: 1.5),
                                        Self.hit(entry: nil, snippet: "in no journal")], bold: false)
        #expect(shown.contains("@00:00 [Manuscript] of clip, Anneliese."), "\(shown)")
        // Under each hit in a recording, the command that plays it (see PlayCommandTextTests).
        #expect(shown.split(separator: "\n").map { String($0.prefix(14)) }
            == ["ENTRY         ", "#4            ", "              ", "assignment #1 ", "              ", "recording #9  ", "              "])
        #expect(shown.contains("voicejournal play --assignment 1 --at 00:01") && shown.hasSuffix("voicejournal play --recording 9"), "\(shown)")
        #expect(SearchResults.text([], bold: false) == "No matches.")
    }

    @Test func boldMatchesEndEveryLinePlain() {
        let marks = SearchResults.highlight(bold: true)
        let shown = SearchResults.text([Self.hit(entry: 4, snippet: "\(marks.open)bookshelf\(marks.close) \u{1B}[2J")], bold: true)
        #expect(shown.contains("\(ANSI.bold)bookshelf\(ANSI.reset) \\e[2J"), "\(shown)")
        #expect(shown.split(separator: "\n").allSatisfy { $0.hasSuffix(ANSI.reset) })
        #expect(SearchResults.highlight(bold: false) == .brackets)
    }

    @Test func emptyListingsSayHowToBegin() {
        #expect(JournalTables.entryList([]) == "No entries.")
        #expect(JournalTables.journals([]) == "No journals yet. Create one with: voicejournal journal create NAME")
        #expect(JournalTables.questions([]) == "No questions yet.")
        #expect(JournalTables.assignments([]) == "No assignments.")
        #expect(JournalTables.vocabulary([], fitting: { $0 }) == "No vocabulary yet. Add some with: voicejournal vocabulary add WORD…")
    }

    @Test func listingsEscapeWhatTheyQuote() {
        let entries = JournalTables.entries([EntryDetails(id: 2, journal: "Personal", kind: .text, title: "T\u{1B}[1m",
                                                          content: "Line one\nline two", mood: nil, theme: nil, createdAt: Self.local(23, 12))])
        #expect(entries == """
            ID  DATE              JOURNAL   KIND  MOOD  THEME  TEXT
            2   2026-11-23 12:00  Personal  text  -     -      T\\e[1m: Line one line two
            """)
        let people = JournalTables.people([Person(id: 3, name: "Evil\u{1B}[2J", relationship: "other")])
        #expect(people == "ID  NAME       RELATIONSHIP  LANGUAGE  EMAIL\n3   Evil\\e[2J  other         -         ")
        let words = [VocabularyWord(word: "Anneliese", journal: "Personal", createdAt: Self.local(23, 12)),
                     VocabularyWord(word: "Siobhan", journal: "Personal", createdAt: Self.local(22, 12))]
        #expect(JournalTables.vocabulary(words) { Array($0.prefix(1)) }.split(separator: "\n").map { $0.hasSuffix("*") } == [false, true, false])
    }
}
