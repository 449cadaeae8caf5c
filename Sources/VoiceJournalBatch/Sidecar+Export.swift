import Foundation
import VoiceJournalPages
import VoiceJournalStore

extension JournalExport {
    /// One recording's transcript as subtitles (`export --format srt|vtt --recording ID`),
    /// in a file named for its audio file (`recording-<id>` when the path names none).
    package static func subtitles(_ format: SidecarFormat, recording id: Int64, store: JournalStore) throws -> JournalExport {
        guard let stored = try store.recording(id: id) else {
            throw StoreError.notFound("no recording #\(id); see: voicejournal entry list --json (recordingId)")
        }
        guard let transcript = try store.transcript(recordingId: id) else {
            throw StoreError.notFound("recording #\(id) has no transcript yet; run: voicejournal queue run")
        }
        let text = Sidecar.render(format, transcript: transcript, durationSeconds: stored.durationSeconds)
        let name = URL(fileURLWithPath: stored.path).deletingPathExtension().lastPathComponent
        return JournalExport(documents: [Document(name: fileName(name.isEmpty ? "recording-\(id)" : name) + "." + format.rawValue,
                                                  text: text)])
    }
}
