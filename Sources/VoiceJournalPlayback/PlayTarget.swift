import VoiceJournalAudio
import Foundation
import VoiceJournalStore
import VoiceJournalTerminal

/// What to play: an audio file with its timed transcript, where it came from in the journal
/// and where to start. Made from the store (an entry, a recording, an answer, a search hit)
/// or from a path; reading the store only, never the audio (the player opens that, and its
/// decoder's error is the one the user sees for a missing or broken file).
public struct PlayTarget: Sendable, Equatable {
    /// The audio file, absolute.
    public var url: URL
    /// For the status line: "#12 · 2026-11-24 · Daily", "assignment #3 · Grandma", a file's
    /// name. Raw text from outside (names, paths): escaped where it is shown.
    public var title: String
    /// The timed transcript on the file's clock; [] when there is none (yet).
    public var segments: [Transcript.Segment]
    public var entryId: Int64?
    public var recordingId: Int64?
    public var assignmentId: Int64?
    /// Where a search hit starts (see `PlaybackStart`); nil: from the start, or where the
    /// caller says.
    public var startSeconds: Double?
    /// The recording is still being recorded (or its recorder died before finishing it): its
    /// file is read as far as it reaches on disk (see `AudioDecoder`'s `growing`).
    public var isBeingRecorded: Bool
    /// What a stored recording's file held when stored (see `checkContent()`); nil for a file.
    package var content: StoredContent?

    public init(url: URL, title: String, segments: [Transcript.Segment] = [], entryId: Int64? = nil,
                recordingId: Int64? = nil, assignmentId: Int64? = nil, startSeconds: Double? = nil, isBeingRecorded: Bool = false) {
        self.url = url
        self.title = title
        self.segments = segments
        self.entryId = entryId
        self.recordingId = recordingId
        self.assignmentId = assignmentId
        self.startSeconds = startSeconds
        self.isBeingRecorded = isBeingRecorded
    }

    /// The entry's recording (its latest, as `entry show` shows it) with its transcript.
    public static func entry(_ id: Int64, in store: JournalStore) throws -> PlayTarget {
        let entry = try existing(.noSuchEntry, "there is no entry #\(id); see `voicejournal entry list`") {
            try store.entry(id: id)
        }
        guard let details = try store.recordingDetails(ofEntry: id) else {
            throw PlayTargetError(.typedEntry, "entry #\(id) was typed, not recorded: there is nothing to play; read it with `voicejournal entry show \(id)`")
        }
        return make(details.recording, transcript: details.transcript, title: title(of: entry), home: store.home)
    }

    /// One recording by its id, whatever it belongs to (an entry, an answer, a transcribed file).
    public static func recording(_ id: Int64, in store: JournalStore) throws -> PlayTarget {
        guard let recording = try store.recording(id: id) else {
            throw PlayTargetError(.noSuchRecording, "there is no recording #\(id); `voicejournal search WORDS` shows the recordings that hold them")
        }
        let title: String
        if let entryId = recording.entryId, let entry = try? store.entry(id: entryId) {
            title = Self.title(of: entry)
        } else if let assignmentId = recording.assignmentId, let assignment = try? store.assignment(id: assignmentId) {
            title = Self.title(of: assignment)
        } else {
            title = "recording #\(id) · \((recording.path as NSString).lastPathComponent)"
        }
        return make(recording, transcript: try store.transcript(recordingId: id), title: title, home: store.home)
    }

    /// The recording that answers an assignment.
    public static func assignment(_ id: Int64, in store: JournalStore) throws -> PlayTarget {
        let assignment = try existing(.noSuchAssignment, "there is no assignment #\(id); see `voicejournal assignment list`") {
            try store.assignment(id: id)
        }
        guard let details = try store.recordingDetails(ofAssignment: id) else {
            throw PlayTargetError(.notAnswered, "assignment #\(id) is not answered yet: there is nothing to play; its link: `voicejournal assignment link \(id)`")
        }
        return make(details.recording, transcript: details.transcript, title: title(of: assignment), home: store.home)
    }

    /// The best hit of `query` (as `search` ranks them) that lies in a recording, from a
    /// second before its segment; the search stops after `timeLimit`, as `search` does.
    public static func search(_ query: String, in store: JournalStore,
                              timeLimit: Duration = SearchTimeLimit.standard) throws -> PlayTarget {
        // Deeper than `search` shows: the best hit in a recording may rank below typed entries.
        let hits = try store.search(query, limit: 200, timeLimit: timeLimit)
        guard let target = try best(of: hits, in: store) else {
            throw PlayTargetError(.noHitWithRecording, hits.isEmpty
                ? "nothing matches \"\(query)\": there is nothing to play"
                : "no match for \"\(query)\" lies in a recording: only typed entries hold those words")
        }
        return target
    }

    /// The first of `hits` (best first, as `search` returned them, its filters applied) that
    /// lies in a recording: a transcript's hit from a second before its segment, a voice
    /// entry matched by its title from the start. Nil when none does.
    public static func best(of hits: [SearchHit], in store: JournalStore) throws -> PlayTarget? {
        for hit in hits {
            if let recordingId = hit.recordingId {
                var target = try recording(recordingId, in: store)
                target.startSeconds = hit.playbackStart
                return target
            }
            if let entryId = hit.entryId, let target = try? entry(entryId, in: store) {
                return target
            }
        }
        return nil
    }

    /// A file by its path (relative to the working folder, or absolute). A missing or
    /// unreadable file is still a target: opening it gives the decoder's one-line error. A
    /// folder, pipe, device or socket is refused here, before anything opens it (a pipe would
    /// block the player, a device never end).
    public static func file(_ path: String) throws -> PlayTarget {
        let url = URL(filePath: absolute(path), directoryHint: .notDirectory)
        if let status = try? FileStatus.of(url.path), status.kind != .regular {
            throw PlayTargetError(.notAFile, "\(path) is \(status.kind.words), not an audio file; give the path of a recording")
        }
        return PlayTarget(url: url, title: url.lastPathComponent)
    }

    /// `path` made absolute against the working folder, `.` and `..` resolved by name as a file
    /// URL does. Done here with getcwd, byte by byte: a relative file URL has Foundation set up
    /// its FileManager to ask for the folder, and the generic `split` and `joined` first set up
    /// their own types; together a tenth of play's start for a path typed on the command line.
    static func absolute(_ path: String) -> String {
        var full = Array(path.utf8)
        if full.first != UInt8(ascii: "/"), let folder = getcwd(nil, 0) {
            full = Array(String(cString: folder).utf8) + [UInt8(ascii: "/")] + full
            free(folder)
        }
        guard full.first == UInt8(ascii: "/") else { return path }
        var resolved: [UInt8] = []
        var part: [UInt8] = []
        // Each part ends at a slash (and the last at the end): "." is dropped, ".." takes off
        // the part before it, an empty one (a doubled slash) is nothing.
        for byte in full + [UInt8(ascii: "/")] {
            guard byte == UInt8(ascii: "/") else {
                part.append(byte)
                continue
            }
            if part == [UInt8(ascii: ".")] || part.isEmpty {
                // nothing
            } else if part == [UInt8(ascii: "."), UInt8(ascii: ".")] {
                while let last = resolved.popLast(), last != UInt8(ascii: "/") {}
            } else {
                resolved.append(UInt8(ascii: "/"))
                resolved += part
            }
            part.removeAll(keepingCapacity: true)
        }
        return resolved.isEmpty ? "/" : String(decoding: resolved, as: UTF8.self)
    }

    // MARK: - Making one

    private static func make(_ recording: Recording, transcript: Transcript?, title: String, home: DataHome) -> PlayTarget {
        var target = PlayTarget(url: absolute(recording.path, in: home), title: title, segments: transcript?.segments ?? [],
                                entryId: recording.entryId, recordingId: recording.id, assignmentId: recording.assignmentId,
                                isBeingRecorded: recording.state == .recording)
        target.content = StoredContent(sha256: recording.sha256, stamp: recording.fileStamp)
        return target
    }

    /// Recordings store absolute paths (`record` writes under the home's `audio/`,
    /// `transcribe` keeps the file where it was found); a relative one, as only a crafted
    /// import could hold, is read as lying in the home, and never leads out of it (`..`).
    static func absolute(_ path: String, in home: DataHome) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        let inside = path.split(separator: "/").filter { $0 != ".." && $0 != "." }.joined(separator: "/")
        return home.url.appendingPathComponent(inside)
    }

    static func title(of entry: EntryDetails) -> String {
        "#\(entry.id) · \(LocalDate.short(entry.createdAt).prefix(10)) · \(entry.journal)"
    }

    static func title(of assignment: AssignmentSummary) -> String {
        "assignment #\(assignment.id) · \(assignment.person)"
    }

    /// `read`'s value; the store's "not found" becomes `PlayTargetError` of `kind`.
    private static func existing<Value>(_ kind: PlayTargetError.Kind, _ message: String, _ read: () throws -> Value) throws -> Value {
        do {
            return try read()
        } catch let error as StoreError where error.kind == .notFound {
            throw PlayTargetError(kind, message)
        }
    }
}
