import Foundation
import VoiceJournalPages
import VoiceJournalStore

extension JournalExport {
    /// One recording's transcript as subtitles or text (`export --format srt|vtt|txt --recording ID`),
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

    /// What `export --format` makes: journals as Markdown, the whole journal as JSON (for
    /// `import`), or one recording's transcript as subtitles or text.
    package enum Format: String, CaseIterable, Sendable { case md, json, srt, vtt, txt }

    /// The export `format` makes of `store`: the journal named (else every one), entries from
    /// `since` up to `until`, audio linked from `linksFrom` or copied with `copyAudio` (md); the
    /// archive exported at `now` (json); `recording`'s transcript (srt, vtt, txt).
    package static func make(_ format: Format, of store: JournalStore, journal: String?, since: Date?, until: Date?,
                             recording: Int64?, linksFrom: @autoclosure () -> URL, copyAudio: Bool,
                             now: @autoclosure () -> Date) throws -> JournalExport {
        switch format {
        case .md:
            try markdown(store, journal: journal, since: since, until: until, linksFrom: linksFrom(), copyAudio: copyAudio)
        case .json:
            try archive(store, ArchiveSelection(journal: journal, since: since, until: until), now: now())
        case .srt, .vtt, .txt:
            try subtitles(SidecarFormat(rawValue: format.rawValue) ?? .txt, recording: recording ?? 0, store: store)
        }
    }
}
