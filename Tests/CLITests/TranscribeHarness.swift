import Foundation
import Testing
import VoiceJournalTestSupport

/// A private home, a folder of generated audio, the stub server and the built binary wired
/// to it (short backoff so retries take milliseconds; the waits the server asks for still hold).
struct TranscribeHarness {
    let folder: TemporaryFolder
    let server: StubWhisperServer
    var binary: VoicejournalBinary

    init(rules: [StubWhisperServer.Rule] = [], delay: Double = 0, key: String? = nil,
         environment: [String: String] = [:], translateRules: [StubWhisperServer.Rule] = [], language: String = "english") throws {
        folder = try TemporaryFolder("vj-transcribe")
        server = try StubWhisperServer(rules: rules, delay: delay, expectedKey: key, translateRules: translateRules, language: language)
        var env = ["OPENAI_BASE_URL": server.baseURL, "VOICEJOURNAL_RETRY_BASE": "0.01", "OPENAI_API_KEY": key ?? ""]
        env.merge(environment) { $1 }
        binary = VoicejournalBinary(home: folder.path("home"), environment: env)
    }

    var database: URL { folder.path("home/voicejournal.sqlite") }

    /// A folder `name` (created) holding one short tone per file name.
    @discardableResult
    func tones(_ names: [String], in name: String, seconds: Double = 0.5) throws -> URL {
        let dir = folder.path(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (index, file) in names.enumerated() {
            try makeTone(at: dir.appendingPathComponent(file), seconds: seconds, frequency: 300 + 37 * index + 7 * name.count)
        }
        return dir
    }

    /// `count` distinct short WAV tones in a folder `name` (created), `seconds` long each.
    @discardableResult
    func audio(_ count: Int, in name: String = "in", prefix: String = "clip", seconds: Double = 0.2) throws -> URL {
        let dir = folder.path(name)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for index in 0..<count {
            try makeTone(at: dir.appendingPathComponent("\(prefix)\(String(format: "%02d", index)).wav"),
                         seconds: seconds, frequency: 180 + index * 11)
        }
        return dir
    }

    /// Transcripts in the database: recording path → how many transcripts it has, and the text.
    func transcripts() throws -> [String: (count: Int, text: String)] {
        let rows = try queryDatabase(database, """
            SELECT recording.path, count(transcript.id), max(transcript.text)
            FROM recording LEFT JOIN transcript ON transcript.recordingId = recording.id GROUP BY recording.id
            """)
        var result: [String: (Int, String)] = [:]
        for row in rows {
            guard let path = row[0] as? String else { continue }
            result[path] = ((row[1] as? Int) ?? 0, (row[2] as? String) ?? "")
        }
        return result
    }

    /// Job state by recording path.
    func jobStates() throws -> [String: String] {
        let rows = try queryDatabase(database, "SELECT recording.path, job.state FROM job JOIN recording ON recording.id = job.recordingId")
        return Dictionary(rows.compactMap { row in (row[0] as? String).map { ($0, (row[1] as? String) ?? "") } },
                          uniquingKeysWith: { first, _ in first })
    }

    /// Whether every file in `folder` was transcribed exactly once in the database.
    func everyFileTranscribedOnce(in dir: URL) throws -> Bool {
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".wav") }
        let transcripts = try transcripts()
        return !files.isEmpty && files.allSatisfy { name in
            let entry = transcripts[dir.appendingPathComponent(name).path]
            return entry?.count == 1 && entry?.text == "Transcript of \((name as NSString).deletingPathExtension)."
        }
    }
}
