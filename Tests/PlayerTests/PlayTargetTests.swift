import Foundation
import VoiceJournalPlayback
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// `PlayTarget` from a real journal on disk: an entry's recording, an answer, a transcribed
/// file in no journal, the best search hit in a recording, a path; and each way there is
/// nothing to play, in one line.
@Suite(.onTestThreads) struct PlayTargetTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }
    /// The stub transcript's segments: the word "ferry" is said from 291.3 s.
    static let segments = [Transcript.Segment(start: 0, end: 5, text: " We walked down to the harbour."),
                           Transcript.Segment(start: 291.3, end: 295, text: " And then the ferry left.")]

    init() throws {
        journal = try TemporaryJournal()
        _ = try journal.store.createJournal(name: "Daily")
    }

    /// A finished voice entry in `journal`, its audio a short tone under the home's `audio/`,
    /// transcribed as `segments` (none: not transcribed yet).
    func voiceEntry(journal name: String = "Daily", segments: [Transcript.Segment]? = segments) throws -> Recording {
        let started = try store.beginRecording(owner: .entry(journal: name, title: nil, mood: nil, theme: nil),
                                               format: "wav", sampleRate: 16000, channels: 1) { id in
            let folder = store.home.audioFolder(for: Date())
            try store.home.createPrivateFolder(folder)
            return (try makeTone(at: folder.appendingPathComponent("take-\(id).wav"), seconds: 0.2, frequency: 200 + Int(id)).path, ())
        }
        let url = URL(fileURLWithPath: started.recording.path)
        let id = try #require(started.recording.id)
        let done = try #require(try store.completeRecording(id: id, facts: RecordingFacts(
            sha256: try sha256sum(url), durationSeconds: 0.2, sizeBytes: 6444, peakDBFS: -3, rmsDBFS: -6)))
        if let segments { try transcribe(done.recording, segments) }
        return done.recording
    }

    /// Stores `segments` as the recording's transcript, as the queue does.
    func transcribe(_ recording: Recording, _ segments: [Transcript.Segment]) throws {
        let claimed = try #require(try store.queue.claimNextJob(owner: "test", lease: 60))
        #expect(claimed.recordingId == recording.id)
        _ = try store.queue.completeJob(id: try #require(claimed.id), owner: "test", transcript: Transcript(
            recordingId: claimed.recordingId, text: segments.map(\.text).joined(), model: "whisper-1", segments: segments))
    }

    @Test func anEntryPlaysItsRecordingWithItsTimedTranscriptFromTheStart() throws {
        let recording = try voiceEntry()
        let entryId = try #require(recording.entryId)
        let target = try PlayTarget.entry(entryId, in: store)
        #expect(target.url == URL(fileURLWithPath: recording.path) && target.url.path.hasPrefix("/"))
        #expect(target.segments == Self.segments)
        #expect(target.entryId == entryId && target.recordingId == recording.id && target.assignmentId == nil)
        #expect(target.startSeconds == nil && !target.isBeingRecorded)
        let day = String(LocalDateText.day(Date()))
        #expect(target.title == "#\(entryId) · \(day) · Daily", "\(target.title)")
        #expect(try PlayTarget.recording(try #require(recording.id), in: store) == target, "the same recording by its own id")
    }

    @Test func aRecordingStillBeingRecordedIsATargetThatSaysSo() throws {
        let started = try store.beginRecording(owner: .entry(journal: "Daily", title: nil, mood: nil, theme: nil),
                                               format: "wav", sampleRate: 16000, channels: 1) { id in
            (journal.folder.path("live-\(id).wav").path, ())
        }
        let target = try PlayTarget.entry(try #require(started.recording.entryId), in: store)
        #expect(target.isBeingRecorded && target.segments.isEmpty)
        #expect(target.url.lastPathComponent == "live-\(try #require(started.recording.id)).wav")
    }

    @Test func anAnswerPlaysAsItsAssignmentAndNotBeforeItIsAnswered() throws {
        _ = try store.addPerson(name: "Grandma Rose", relationship: nil, email: nil)
        _ = try store.createJournal(name: "Rose")
        let question = try store.addQuestion(journal: "Rose", text: "Where did you grow up?")
        let assignment = try store.assign(questionId: try #require(question.id), to: "Grandma Rose")
        #expect { try PlayTarget.assignment(assignment.id, in: store) } throws: { error in
            (error as? PlayTargetError)?.kind == .notAnswered && "\(error)".contains("assignment #\(assignment.id) is not answered yet")
        }
        let source = try makeTone(at: journal.folder.path("answer.wav"), seconds: 0.2)
        let answer = try store.addAnswer(assignmentId: assignment.id, format: "wav", sampleRate: 16000, channels: 1, facts: RecordingFacts(
            sha256: try sha256sum(source), durationSeconds: 0.2, sizeBytes: 6444, peakDBFS: nil, rmsDBFS: nil)) { _ in source.path }
        try transcribe(answer.recording, Self.segments)
        let target = try PlayTarget.assignment(assignment.id, in: store)
        #expect(target.title == "assignment #\(assignment.id) · Grandma Rose")
        #expect(target.url == source && target.assignmentId == assignment.id && target.entryId == nil)
        #expect(target.segments.map(\.start) == [0, 291.3])
        #expect(try PlayTarget.recording(try #require(answer.recording.id), in: store).title == target.title)
    }

    @Test func aSearchPlaysTheBestHitInARecordingFromASecondBeforeItsSegment() throws {
        // A typed entry matches better (shorter) but holds no audio.
        _ = try store.addEntry(journal: "Daily", title: nil, content: "ferry", mood: nil, theme: nil)
        let recording = try voiceEntry()
        let target = try PlayTarget.search("ferry", in: store)
        #expect(target.recordingId == recording.id && target.entryId == recording.entryId)
        #expect(target.startSeconds == 291, "ceil(291.3 − 1): within a second before the segment")
        #expect(try PlayTarget.search("harbour", in: store).startSeconds == 0, "a segment at 0 s plays from 0")
    }

    @Test func aSearchHitInAVoiceEntrysTitleStartsAtZero() throws {
        let recording = try voiceEntry(segments: nil)
        try store.pool.write { db in
            try db.execute(sql: "UPDATE entry SET title = 'Lighthouse walk' WHERE id = ?", arguments: [recording.entryId])
        }
        let hit = try #require(try store.search("lighthouse").first)
        #expect(hit.recordingId == nil && hit.matchedIn == "entry", "the title matched, not a transcript")
        let target = try PlayTarget.search("lighthouse", in: store)
        #expect(target.recordingId == recording.id && target.startSeconds == nil)
    }

    @Test func aTranscribedFileInNoJournalIsPlayedByItsRecordingId() throws {
        let file = try makeTone(at: journal.folder.path("loose clip.wav"), seconds: 0.2)
        let added = try store.queue.addBatchFiles([Recording(path: file.path, sha256: try sha256sum(file), durationSeconds: 0.2,
                                                             sampleRate: 16000, channels: 1, format: "wav", state: .complete)])
        let recordingId = try #require(added.first?.recordingId)
        try transcribe(try #require(try store.recording(id: recordingId)), Self.segments)
        let target = try PlayTarget.search("ferry", in: store)
        #expect(target.title == "recording #\(recordingId) · loose clip.wav")
        #expect(target.url == file && target.entryId == nil && target.assignmentId == nil && target.startSeconds == 291)
    }

    @Test func nothingToPlayIsOneLineOfItsOwnKind() throws {
        let typed = try store.addEntry(journal: "Daily", title: nil, content: "only words here", mood: nil, theme: nil)
        let cases: [(() throws -> PlayTarget, PlayTargetError.Kind, String)] = [
            ({ try PlayTarget.entry(999, in: store) }, .noSuchEntry, "there is no entry #999"),
            ({ try PlayTarget.entry(typed.id, in: store) }, .typedEntry, "entry #\(typed.id) was typed"),
            ({ try PlayTarget.recording(999, in: store) }, .noSuchRecording, "there is no recording #999"),
            ({ try PlayTarget.assignment(999, in: store) }, .noSuchAssignment, "there is no assignment #999"),
            ({ try PlayTarget.search("words", in: store) }, .noHitWithRecording, "lies in a recording"),
            ({ try PlayTarget.search("absent", in: store) }, .noHitWithRecording, "nothing matches \"absent\""),
        ]
        for (make, kind, words) in cases {
            #expect { try make() } throws: { error in
                let error = error as? PlayTargetError
                return error?.kind == kind && error.map { "\($0)".contains(words) && !"\($0)".contains("\n") } == true
            }
        }
    }

    @Test func aPathIsATargetEvenWhenMissingButNeverAFolderOrAPipe() throws {
        let missing = try PlayTarget.file(journal.folder.path("gone.wav").path)
        #expect(missing.title == "gone.wav" && missing.segments.isEmpty && missing.recordingId == nil)
        let relative = try PlayTarget.file("some/clip.flac")
        #expect(relative.url.path == FileManager.default.currentDirectoryPath + "/some/clip.flac")
        // `.` and `..` resolved by name, as a file URL made from the path does.
        let parent = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).deletingLastPathComponent().path
        #expect(try PlayTarget.file("../some/./clip.flac").url.path == (parent == "/" ? "" : parent) + "/some/clip.flac")
        #expect(try PlayTarget.file("/a//b/../c.wav").url.path == "/a/c.wav")
        #expect(try PlayTarget.file("/a//b/../c.wav").url == URL(fileURLWithPath: "/a/c.wav"))
        let pipe = journal.folder.path("pipe")
        #expect(mkfifo(pipe.path, 0o600) == 0)
        for (path, kind) in [(journal.folder.url.path, "a folder"), (pipe.path, "a pipe"), ("/dev/null", "a character device")] {
            #expect { try PlayTarget.file(path) } throws: { error in
                (error as? PlayTargetError)?.kind == .notAFile && "\(error)" == "\(path) is \(kind), not an audio file; give the path of a recording"
            }
        }
    }
}

/// The local day as the titles show it.
enum LocalDateText {
    static func day(_ date: Date) -> Substring {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd"
        return Substring(formatter.string(from: date))
    }
}
