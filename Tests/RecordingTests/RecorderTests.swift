import VoiceJournalAudio
import Foundation
import Logging
import VoiceJournalRecording
import VoiceJournalStore
import Synchronization
import VoiceJournalTerminal
import Testing
import VoiceJournalTestSupport

/// A take through `Recorder.record`, in-process, from ALSA's `file` plugin as the microphone.
@Suite struct RecorderTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    @Test(.timeLimit(.minutes(10)))
    func aTakeIsSavedWithItsMeterDrawnUntilItEnds() async throws {
        let tone = CaptureFixtures.sine(sampleRate: 16000, seconds: 1.2, dbfs: -20, frequency: 440)
        let microphone = try VirtualMicrophone(in: journal.folder.url, samples: tone)
        let request = RecordingRequest(device: microphone.name, deviceConfiguration: try ALSAConfiguration(text: microphone.configText),
                                       maxSeconds: 1, owner: .entry(journal: "Personal", title: "tone", mood: nil, theme: nil))
        var started: URL?
        var frames: [LevelDisplay.Frame] = []
        let take = try await Recorder.record(request, store: store, stop: StopButton(), logger: Logger(label: "test")) { progress in
            switch progress {
            case .started(let file): started = file
            case .meter(let frame): frames.append(frame)
            case .saved, .lines: Issue.record("no live transcription asked: \(progress)")
            }
        }
        #expect(take.live == nil)
        #expect(take.outcome.stopReason == .maxDuration && take.outcome.recording.durationSeconds == 1)
        #expect(started?.path == take.outcome.recording.path)
        #expect(frames.last?.finished == true && frames.dropLast().allSatisfy { !$0.finished })
        #expect(abs((frames.last?.level.seconds ?? 0) - 1) < 0.01)
        #expect(take.outcome.summaryLines().first?.hasPrefix("Saved recording \(take.outcome.recordingId): 1.0 s, peak -20.0 dBFS") == true)
        #expect(try store.queue.jobs(ids: [take.outcome.jobId])[take.outcome.jobId]?.state == .queued)
    }

    @Test(.timeLimit(.minutes(10)))
    func listeningMetersTheInputAndSavesNothing() async throws {
        let tone = CaptureFixtures.sine(sampleRate: 16000, seconds: 0.8, dbfs: -6, frequency: 440)
        let microphone = try VirtualMicrophone(in: journal.folder.url, samples: tone)
        let before = try FileManager.default.contentsOfDirectory(atPath: journal.folder.url.path)
        var frames: [LevelDisplay.Frame] = []
        let result = try await Recorder.listen(device: microphone.name, format: CaptureFormat(), seconds: 0.5, stop: StopButton(),
                                               configuration: try ALSAConfiguration(text: microphone.configText),
                                               logger: Logger(label: "test")) { progress in
            if case .meter(let frame) = progress { frames.append(frame) }
        }
        #expect(result.frames == 8000 && result.stopReason == .maxDuration && result.error == nil)
        #expect(abs(result.levels.peakDBFS + 6) < 0.1)
        #expect(frames.last?.finished == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: journal.folder.url.path) == before)
    }

    @Test func onlyAKeyTheUserGaveFindsAnEarlierAnswer() async throws {
        _ = try store.createJournal(name: "Questions")
        let question = try store.addQuestion(journal: "Questions", text: "What made you smile?")
        let assignmentId = try store.assign(questionId: try #require(question.id), to: "Myself").id
        let file = try makeTone(at: journal.folder.path("answer.wav"), seconds: 0.5, frequency: 330)
        let first = AnswerSubmission(assignmentId: assignmentId, idempotencyKey: "key-1")
        #expect(try first.earlier(in: store) == nil)
        let notices = NoticeList()
        let saved = try await first.attach(file: file, store: store, now: Date()) { notices.add($0) }
        #expect(saved.notice == nil && notices.all.first?.hasPrefix("copying \(file.path) (") == true)
        let again = try #require(try AnswerSubmission(assignmentId: assignmentId, idempotencyKey: "key-1").earlier(in: store))
        #expect(again.outcome.recordingId == saved.outcome.recordingId)
        #expect(again.notice == "this answer was saved before with the same idempotency key (key-1): "
                + "recording \(saved.outcome.recordingId); nothing new was stored")
        #expect(try AnswerSubmission(assignmentId: assignmentId, idempotencyKey: nil).earlier(in: store) == nil)
        #expect(AnswerSubmission.size(318_200_000) == "318.2 MB" && AnswerSubmission.size(840_000) == "840 KB")
    }
}

/// Notices said from another thread, kept in order.
final class NoticeList: Sendable {
    private let notices = Mutex<[String]>([])
    func add(_ notice: String) { notices.withLock { $0.append(notice) } }
    var all: [String] { notices.withLock { $0 } }
}
