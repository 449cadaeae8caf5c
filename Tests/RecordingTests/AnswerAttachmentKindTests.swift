import Foundation
import VoiceJournalRecording
import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// An answer file that cannot be kept says why by its kind (what `serve` decides its page by),
/// and the sentence stays the one the user has always read.
@Suite struct AnswerAttachmentKindTests {
    let journal: TemporaryJournal
    let assignmentId: Int64

    init() throws {
        journal = try TemporaryJournal()
        _ = try journal.store.createJournal(name: "Family")
        let question = try journal.store.addQuestion(journal: "Family", text: "Why?")
        assignmentId = try journal.store.assign(questionId: try #require(question.id), to: "Myself").id
    }

    func attach(_ file: URL, maxSeconds: Double? = nil) async throws {
        let attachment = try AnswerAttachment(file: file, assignmentId: assignmentId, maxDurationSeconds: maxSeconds,
                                              store: journal.store)
        _ = try await attachment.attach()
    }

    @Test func anAnswerOverTheLimitIsTooLong() async throws {
        let tone = try makeTone(at: journal.folder.path("long.wav"), seconds: 3)
        let error = await #expect(throws: RecordingError.self) { try await attach(tone, maxSeconds: 1) }
        #expect(error?.kind == .tooLong)
        #expect(error?.description.hasPrefix(tone.path) == true, "\(String(describing: error))")
    }

    @Test func aFileThatIsNotAudioIsNotAudio() async throws {
        let text = journal.folder.path("notes.wav")
        try Data("not audio at all".utf8).write(to: text)
        let error = await #expect(throws: RecordingError.self) { try await attach(text) }
        #expect(error?.kind == .notAudio)
        #expect(error?.description.hasPrefix("\(text.path) is not audio voicejournal can read: ") == true, "\(String(describing: error))")
    }
}
