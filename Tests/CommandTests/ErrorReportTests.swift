import VoiceJournalAudio
import Foundation
import GRDB
import VoiceJournalStore
import VoiceJournalSystem
import Testing
@testable import voicejournal
import VoiceJournalRecording
import VoiceJournalSettings
import VoiceJournalTranscription

/// `ErrorReport.of` is the one mapping from library errors to the exit-code contract.
@Suite struct ErrorReportTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let error: any Error & Sendable
        let status: ErrorReport.Status
        var testDescription: String { "\(name) → \(status.rawValue)" }
    }

    static let rows: [Row] = [
        Row(name: "store: not found", error: StoreError.notFound("no entry #9"), status: .usage),
        Row(name: "store: invalid input", error: StoreError.invalidInput("an empty name"), status: .usage),
        Row(name: "store: conflict", error: StoreError.conflict("already assigned"), status: .usage),
        Row(name: "store: already stored", error: StoreError(.alreadyStored, "same audio"), status: .failure),
        Row(name: "store: storage full", error: StoreError(.storageFull, "disk full"), status: .failure),
        Row(name: "store: read-only", error: StoreError(.readOnly, "read-only"), status: .failure),
        Row(name: "store: storage failure", error: StoreError(.storageFailure, "I/O"), status: .failure),
        Row(name: "store: inconsistent", error: StoreError.inconsistent("no id"), status: .failure),
        Row(name: "store: took too long", error: StoreError(.tookTooLong, "the search took longer than 10 s"), status: .failure),
        Row(name: "SQLite: disk full", error: DatabaseError(resultCode: .SQLITE_FULL), status: .failure),
        Row(name: "SQLite: read-only", error: DatabaseError(resultCode: .SQLITE_READONLY), status: .failure),
        Row(name: "file system: no space", error: POSIXError(.ENOSPC), status: .failure),
        Row(name: "transcription: key refused", error: TranscriptionError(kind: .unauthorized, status: 401, description: "refused"), status: .configuration),
        Row(name: "transcription: no quota", error: TranscriptionError(kind: .quotaExceeded, status: 429, description: "quota"), status: .configuration),
        Row(name: "transcription: endpoint not found", error: TranscriptionError(kind: .endpointNotFound, status: 404, description: "404"), status: .configuration),
        Row(name: "transcription: no key", error: TranscriptionError(kind: .invalidConfiguration, description: "no API key"), status: .configuration),
        Row(name: "transcription: unreachable", error: TranscriptionError(kind: .unreachable, description: "unreachable"), status: .configuration),
        Row(name: "transcription: bad request", error: TranscriptionError(kind: .badRequest, status: 400, description: "bad"), status: .failure),
        Row(name: "transcription: too large", error: TranscriptionError(kind: .tooLarge, status: 413, description: "big"), status: .failure),
        Row(name: "transcription: server error", error: TranscriptionError(kind: .serverError, status: 500, description: "500"), status: .failure),
        Row(name: "transcription: cancelled", error: TranscriptionError(kind: .cancelled, description: "cancelled"), status: .interrupted),
        Row(name: "audio file: not a regular file", error: AudioFileProblem(.notRegularFile, path: "/dev/fd/63", reason: "not a regular file (a pipe)"), status: .failure),
        Row(name: "audio file: truncated", error: AudioFileProblem(.truncated, path: "cut.wav", reason: "truncated"), status: .failure),
        Row(name: "ALSA: unknown device", error: ALSAError(.open, function: "snd_pcm_open", code: -ENOENT, device: "nope"), status: .configuration),
        Row(name: "ALSA: read failed mid-take", error: ALSAError(.read, function: "snd_pcm_readi", code: -EIO, device: "hw:1"), status: .failure),
        Row(name: "sound file", error: SoundFileError(operation: "open", path: "/tmp/a.wav", reason: "not a WAV"), status: .failure),
        Row(name: "recording", error: RecordingError(.nothingRecorded, "nothing was recorded"), status: .failure),
        Row(name: "editor: ended badly", error: EditorError(.failed, "the editor (false) ended with status 1; entry #3 is unchanged"), status: .failure),
        Row(name: "editor: not UTF-8", error: EditorError(.notUTF8, "the editor saved text that is not UTF-8"), status: .failure),
        Row(name: "cancellation", error: CancellationError(), status: .interrupted),
    ]

    @Test(arguments: rows)
    func eachErrorGetsItsDocumentedStatusAndASentence(_ row: Row) {
        let report = ErrorReport.of(row.error)
        #expect(report.status == row.status)
        #expect(!report.message.isEmpty && !report.message.contains("\n"))
        #expect(!report.message.contains("Error Domain="), "a raw Foundation dump: \(report.message)")
    }

    @Test func storageMessagesNameTheHomeAndSayWhatToDo() {
        let home = DataHome(url: URL(fileURLWithPath: "/media/backup/voicejournal"))
        let full = ErrorReport.of(DatabaseError(resultCode: .SQLITE_FULL), home: home)
        #expect(full.message == "the disk is full: the journal in /media/backup/voicejournal cannot be written; free some space and try again")
        let readOnly = ErrorReport.of(DatabaseError(resultCode: .SQLITE_READONLY), home: home)
        #expect(readOnly.message == "the journal in /media/backup/voicejournal is read-only: reading works, but nothing can be saved there")
        // Foundation's file errors become the same sentences, not "NSCocoaErrorDomain Code=513".
        let cocoa = CocoaError(.fileWriteNoPermission, userInfo: [
            NSFilePathErrorKey: "/media/backup/voicejournal", NSUnderlyingErrorKey: POSIXError(.EROFS)])
        let report = ErrorReport.of(cocoa, home: home)
        #expect(report.status == .failure)
        #expect(report.message == "/media/backup/voicejournal is on a read-only disk: nothing can be saved there")
    }
}
