import Foundation
import VoiceJournalTestSupport

/// One real HTTP request to `POST /v1/audio/transcriptions`, sent by curl as multipart form
/// data the way any OpenAI client sends it.
struct TranscriptionRequest {
    var file: URL?
    var fields: [(String, String)] = [("model", "whisper-1")]
    /// Extra curl arguments, e.g. `["-H", "Expect:"]` to send a large body without waiting.
    var curlArguments: [String] = []

    /// What the server answered.
    struct Answer {
        let status: Int
        let contentType: String
        let body: String

        /// The body as a JSON object.
        func object() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
                throw Unexpected(description: "not a JSON object: \(body.prefix(200))")
            }
            return object
        }

        /// `error` of an OpenAI error body, checked to have exactly OpenAI's four keys.
        func openAIError() throws -> [String: Any] {
            guard let error = try object()["error"] as? [String: Any],
                  Set(error.keys) == ["message", "type", "param", "code"] else {
                throw Unexpected(description: "not an OpenAI error shape: \(body.prefix(200))")
            }
            return error
        }
    }

    func send(to server: WhisperServer, path: String = "/v1/audio/transcriptions") throws -> Answer {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("answer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        var arguments = ["-s", "--max-time", "120", "-o", output.path, "-w", "%{http_code} %{content_type}"]
        if let file { arguments += ["-F", "file=@\(file.path)"] }
        for (name, value) in fields { arguments += ["--form-string", "\(name)=\(value)"] }  // taken literally
        arguments += curlArguments + ["http://127.0.0.1:\(server.port)\(path)"]
        let written = try runTool("curl", arguments)
        let parts = written.split(separator: " ", maxSplits: 1).map(String.init)
        let body = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return Answer(status: Int(parts.first ?? "") ?? 0, contentType: parts.count > 1 ? parts[1] : "", body: body)
    }
}
