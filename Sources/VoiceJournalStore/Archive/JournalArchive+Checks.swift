import Foundation
import GRDB
import VoiceJournalLanguages

/// What an archive's rows must be before `importArchive` writes any of them: every value of
/// the type its column holds (a date that is a date, a number that is a number), every value
/// of a closed set one of the set (an entry's kind, a job's state), every JSON column
/// readable, and every file a row names a file voicejournal may keep (see `HomeFiles`).
/// A document that breaks one is refused with one line naming the row and the field; nothing
/// is written. Without these, a crafted or damaged export would be stored as it is, and
/// every later command reading it (stats, search, export, a delete) would meet it.
struct ArchiveRowCheck {
    let files: HomeFiles
    var source: ArchiveSource = .export

    /// The rules for the columns a table has, read from the database's own schema.
    struct Column {
        let name: String
        let type: String
        let isRequired: Bool
    }

    /// Checks one row of `table` (the `index`th of the document's rows for it).
    func check(_ row: [String: JournalArchive.Value], of table: String, index: Int, columns: [Column]) throws {
        let item = Self.item(row, of: table, index: index)
        for column in columns {
            let value = row[column.name] ?? .null
            if case .null = value {
                guard !column.isRequired else { throw refusal(item, column.name, "is missing (it must have a value)") }
                continue
            }
            try checkType(value, column, item)
            try checkMeaning(value, table: table, column: column.name, item: item)
        }
        // A recording still `recording` is one this machine's recorder is writing: the next
        // command repairs its file, so it must be a file voicejournal records into.
        if table == Recording.databaseTableName, row["state"] == .text(RecordingState.recording.rawValue),
           case .text(let path)? = row["path"], files.place(of: path) != .audio {
            throw refusal(item, "state", "is \"recording\" (unfinished) but its file is not under the data folder's audio/ folder")
        }
    }

    private func checkType(_ value: JournalArchive.Value, _ column: Column, _ item: String) throws {
        let shown = Self.shown(value)
        switch (column.type, value) {
        case ("INTEGER", .integer), ("DOUBLE", .integer), ("DOUBLE", .real), ("REAL", .integer), ("REAL", .real), ("TEXT", .text):
            return
        case ("BOOLEAN", .integer(let flag)) where flag == 0 || flag == 1:
            return
        case ("DATETIME", .text):
            guard Date.fromDatabaseValue(value.databaseValue) != nil else {
                throw refusal(item, column.name, "is \(shown), which is not a date and time")
            }
        case ("INTEGER", _):
            throw refusal(item, column.name, "is \(shown); it must be a whole number")
        case ("DOUBLE", _), ("REAL", _):
            throw refusal(item, column.name, "is \(shown); it must be a number")
        case ("BOOLEAN", _):
            throw refusal(item, column.name, "is \(shown); it must be 0 or 1")
        case ("DATETIME", _):
            throw refusal(item, column.name, "is \(shown), which is not a date and time")
        default:
            throw refusal(item, column.name, "is \(shown); it must be text")
        }
    }

    /// The longest time in seconds a row may hold (about 116 days): every time is shown and
    /// cut into whole numbers, and a number past any recording's length is no time at all.
    static let maxSeconds = 10_000_000.0
    private static let secondsColumns: Set<String> = ["durationSeconds", "startSeconds", "endSeconds", "audioSentSeconds"]

    /// The rules beyond the type: times, closed sets, JSON, file paths.
    private func checkMeaning(_ value: JournalArchive.Value, table: String, column: String, item: String) throws {
        if Self.secondsColumns.contains(column) {
            let seconds: Double = switch value {
            case .integer(let number): Double(number)
            case .real(let number): number
            default: 0
            }
            guard seconds >= 0, seconds <= Self.maxSeconds else {
                throw refusal(item, column, "is \(Self.shown(value)), which is not a time in seconds between 0 and \(Int(Self.maxSeconds))")
            }
        }
        if table == Transcript.databaseTableName, column == "resends" {
            guard case .integer(let count) = value, count >= 0, count <= TranscriptCheck.maxCount else {
                throw refusal(item, column, "is \(Self.shown(value)), which is not a count between 0 and \(TranscriptCheck.maxCount)")
            }
        }
        guard case .text(let text) = value else { return }
        func oneOf<Value: RawRepresentable & CaseIterable>(_: Value.Type) throws where Value.RawValue == String {
            guard Value(rawValue: text) == nil else { return }
            throw refusal(item, column, "is \(Self.shown(value)); it must be one of "
                + Value.allCases.map(\.rawValue).joined(separator: ", "))
        }
        switch (table, column) {
        case (Entry.databaseTableName, "kind"): try oneOf(EntryKind.self)
        case (Entry.databaseTableName, "mood"): try oneOf(Mood.self)
        case (Entry.databaseTableName, "theme"): try oneOf(Theme.self)
        case (Assignment.databaseTableName, "status"): try oneOf(AssignmentStatus.self)
        case (Recording.databaseTableName, "state"): try oneOf(RecordingState.self)
        case (Job.databaseTableName, "state"), (ReflectionJob.databaseTableName, "state"): try oneOf(JobState.self)
        case (Job.databaseTableName, "kind"):
            let chunk = text.hasPrefix(Job.chunkKindPrefix) && Int(text.dropFirst(Job.chunkKindPrefix.count)).map { $0 > 0 } == true
            guard text == Job.transcribeKind || chunk else {
                throw refusal(item, column, "is \(Self.shown(value)); it must be \(Job.transcribeKind) or \(Job.chunkKindPrefix)N")
            }
        case (Transcript.databaseTableName, "segments"), (Transcript.databaseTableName, "originalSegments"),
             (Transcript.databaseTableName, "translationSegments"):
            guard let segments = try? JSONDecoder().decode([Transcript.Segment].self, from: Data(text.utf8)),
                  Self.timesFit(segments) else {
                throw refusal(item, column, "is not a list of segments ({\"start\": seconds, \"end\": seconds, \"text\": words})")
            }
            if let problem = TranscriptCheck.problem(segments) { throw refusal(item, column, problem) }
        case (Transcript.databaseTableName, "unheard"):
            guard let gaps = try? JSONDecoder().decode([Transcript.Gap].self, from: Data(text.utf8)) else {
                throw refusal(item, column, "is not a list of stretches ({\"start\": seconds, \"end\": seconds})")
            }
            if let problem = TranscriptCheck.problem(gaps) { throw refusal(item, column, problem) }
        case (Transcript.databaseTableName, "leftOut"):
            guard let leftOut = try? JSONDecoder().decode([Transcript.LeftOut].self, from: Data(text.utf8)) else {
                throw refusal(item, column, "is not a list of left-out text ({\"start\", \"end\", \"text\", \"reason\"})")
            }
            if let problem = TranscriptCheck.problem(leftOut) { throw refusal(item, column, problem) }
        case ("job_chunk", "result"):
            guard let result = try? JSONDecoder().decode(ChunkResult.self, from: Data(text.utf8)), Self.timesFit(result.segments),
                  Self.timesFit(result.translationSegments ?? []) else {
                throw refusal(item, column, "is not a chunk's transcription result")
            }
            if let problem = TranscriptCheck.problem(result) { throw refusal(item, column, problem) }
        case (StoredReflection.databaseTableName, "reasons"):
            guard let reasons = try? JSONDecoder().decode([String].self, from: Data(text.utf8)), reasons.count <= 100,
                  reasons.allSatisfy({ $0.utf8.count <= 1000 }) else {
                throw refusal(item, column, "is not a list of reasons (at most 100 texts of 1000 bytes)")
            }
        case (StoredReflection.databaseTableName, "fields"):
            // What the fields claim is checked again against the entry whenever they are shown;
            // here only that they are a JSON object of a reflection's size.
            guard text.utf8.count <= 64 << 10, (try? JSONSerialization.jsonObject(with: Data(text.utf8))) is [String: Any] else {
                throw refusal(item, column, "is not a reflection's fields (a JSON object of at most 64 KB)")
            }
        case (AskTurn.databaseTableName, "passages"):
            guard let refs = try? JSONDecoder().decode([AskTurn.PassageRef].self, from: Data(text.utf8)), refs.count <= 100 else {
                throw refusal(item, column, "is not a list of passages ({\"number\", \"entryId\", \"start\", \"end\"}, at most 100)")
            }
        case (AskTurn.databaseTableName, "facts"):
            guard let facts = try? JSONDecoder().decode([String].self, from: Data(text.utf8)), facts.count <= 100,
                  facts.allSatisfy({ $0.utf8.count <= 1000 }) else {
                throw refusal(item, column, "is not a list of facts (at most 100 texts of 1000 bytes)")
            }
        case (AskTurn.databaseTableName, "cited"), (AskTurn.databaseTableName, "removed"):
            guard let numbers = try? JSONDecoder().decode([Int].self, from: Data(text.utf8)), numbers.count <= 1000 else {
                throw refusal(item, column, "is not a list of passage numbers")
            }
        case (Delivery.databaseTableName, "kind"): try oneOf(Delivery.Kind.self)
        case (Delivery.databaseTableName, "state"): try oneOf(Delivery.State.self)
        case (Nudge.databaseTableName, "state"): try oneOf(Nudge.State.self)
        case (Nudge.databaseTableName, "channel"): try oneOf(Nudge.Channel.self)
        case (Nudge.databaseTableName, "day"):
            guard Self.isDay(text) else { throw refusal(item, column, "is \(Self.shown(value)), which is not a day (YYYY-MM-DD)") }
        case (Nudge.databaseTableName, "reply"):
            guard text.count <= JournalStore.longestNudgeReply else {
                throw refusal(item, column, "is longer than \(JournalStore.longestNudgeReply) characters")
            }
        case (StoredReflection.databaseTableName, "periodKind"): try oneOf(StoredReflection.PeriodKind.self)
        case (StoredReflection.databaseTableName, "status"): try oneOf(StoredReflection.Status.self)
        case (Recording.databaseTableName, "path"):
            try checkFile(text, allowed: .audio, item: item, column: column)
        case ("job_chunk", "path"):
            try checkFile(text, allowed: .temporary, item: item, column: column)
        case (Journal.databaseTableName, "language"), (Person.databaseTableName, "language"):
            // Sent with uploads: only a code Whisper knows.
            guard SpokenLanguage.code(typed: text) == text else {
                throw refusal(item, column, "is \(Self.shown(value)); it must be a language code Whisper knows (e.g. en, de, pl)")
            }
        case (Transcript.databaseTableName, "language"):
            // A code, or the name an older journal stored ("german").
            guard SpokenLanguage.code(for: text) != nil else {
                throw refusal(item, column, "is \(Self.shown(value)); it must be a language code Whisper knows (e.g. en, de, pl)")
            }
        default:
            return
        }
    }

    /// A recording's file must be one under the home's `audio/` (a chunk's under `tmp/`), or
    /// lie outside the home (kept as a file voicejournal did not make, never removed): never
    /// the database, the home, a folder or anything else of the home's.
    private func checkFile(_ path: String, allowed: HomeFiles.Place, item: String, column: String) throws {
        let folder = allowed == .audio ? "audio" : "tmp"
        let place = files.place(of: path)
        switch place {
        case .malformed:
            throw refusal(item, column, "is \(Self.shown(.text(path))), which is not an absolute path to a file")
        case .outside:
            // Kept as a file voicejournal did not make: never removed (see `HomeFiles`).
            return
        case .elsewhereInHome, .audio, .temporary:
            guard place == allowed else {
                throw refusal(item, column, "names \(Self.shown(.text(path))), which is inside the data folder "
                    + "but not a file under its \(folder)/ folder")
            }
            if HomeFiles.isNotARegularFile(path) {
                throw refusal(item, column, "names \(Self.shown(.text(path))), which is not a regular file")
            }
        }
    }

    /// Whether `text` is a day of the calendar written "YYYY-MM-DD".
    static func isDay(_ text: String) -> Bool {
        guard text.utf8.count == 10, let match = text.wholeMatch(of: /(\d{4})-(\d{2})-(\d{2})/),
              let month = Int(match.2), let day = Int(match.3), (1...12).contains(month), day >= 1 else { return false }
        var components = DateComponents(year: Int(match.1), month: month, day: day)
        components.calendar = Calendar(identifier: .gregorian)
        return components.isValidDate
    }

    /// Whether every segment's times are finite and no further from 0 than `maxSeconds`.
    private static func timesFit(_ segments: [Transcript.Segment]) -> Bool {
        segments.allSatisfy { abs($0.start) <= maxSeconds && abs($0.end) <= maxSeconds }
    }

    private func refusal(_ item: String, _ column: String, _ problem: String) -> StoreError {
        StoreError.invalidInput("\(source.cannot): \(item) \(column) \(problem); \(source.nothing)")
    }

    /// "entry #3" (by its id), else "job_chunk row 2" (by its place in the document).
    static func item(_ row: [String: JournalArchive.Value], of table: String, index: Int) -> String {
        if case .integer(let id)? = row["id"] { return "\(table) #\(id)" }
        return "\(table) row \(index + 1)"
    }

    /// A value as the document has it, short enough for one line.
    static func shown(_ value: JournalArchive.Value) -> String {
        switch value {
        case .null: return "null"
        case .integer(let number): return "\(number)"
        case .real(let number): return "\(number)"
        case .text(let text):
            let escaped = text.unicodeScalars.map { scalar in
                scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }.joined()
            return "\"" + (escaped.count > 80 ? escaped.prefix(77) + "…" : escaped) + "\""
        }
    }
}
