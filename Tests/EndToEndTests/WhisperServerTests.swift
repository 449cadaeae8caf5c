import Foundation
import Testing
import VoiceJournalTestSupport

/// whisper-server/whisper-server speaks OpenAI's transcription API: every response format carries
/// what was said, errors come in OpenAI's shape with OpenAI's status codes, concurrent
/// uploads are all answered, the multilingual model names languages and translates, and a
/// kept-alive connection is answered without waiting for delayed ACKs. Driven over real HTTP
/// by curl (and one raw socket).
@Suite struct WhisperServerTests {
    static let sentence = "Please remember to close the windows and lock the door before you leave the house."

    @Test(arguments: ["json", "text", "srt", "vtt", "verbose_json"])
    func everyResponseFormatCarriesWhatWasSaid(format: String) async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-format")
        let clip = try Speech.wav(Self.sentence, in: folder, name: "clip")
        let duration = try Speech.seconds(of: clip)
        let answer = try TranscriptionRequest(file: clip, fields: [("model", "whisper-1"), ("response_format", format)])
            .send(to: server)
        #expect(answer.status == 200, "\(answer.body)")

        let heard: String
        switch format {
        case "json":
            #expect(answer.contentType.hasPrefix("application/json"))
            heard = try #require(answer.object()["text"] as? String)
        case "text":
            #expect(answer.contentType.hasPrefix("text/plain"))
            #expect(answer.body.hasSuffix("\n") && !answer.body.hasPrefix("{"))
            heard = answer.body
        case "srt", "vtt":
            let cues = format == "srt" ? try Subtitles.srt(answer.body) : try Subtitles.vtt(answer.body)
            #expect(!cues.isEmpty)
            #expect(Subtitles.isMonotonic(cues), "\(cues)")
            #expect((cues.last?.end ?? 0) <= duration + 1)
            heard = cues.map(\.text).joined(separator: " ")
        default:
            let object = try answer.object()
            #expect(object["task"] as? String == "transcribe")
            #expect(object["language"] as? String == "english")  // a name, as OpenAI gives it
            #expect(abs((object["duration"] as? Double ?? 0) - duration) < 0.1)
            #expect(object["words"] == nil)  // only on request
            let segments = try #require(object["segments"] as? [[String: Any]])
            #expect(!segments.isEmpty)
            for (index, segment) in segments.enumerated() {
                #expect(Set(segment.keys) == ["id", "seek", "start", "end", "text", "tokens", "temperature",
                                              "avg_logprob", "compression_ratio", "no_speech_prob"])
                #expect(segment["id"] as? Int == index)
            }
            let cues = segments.map { Cue(start: $0["start"] as? Double ?? -1, end: $0["end"] as? Double ?? -1, text: "") }
            #expect(Subtitles.isMonotonic(cues), "\(cues)")
            #expect(segments.compactMap { $0["text"] as? String }.joined() .trimmingCharacters(in: .whitespaces)
                    == object["text"] as? String)
            heard = try #require(object["text"] as? String)
        }
        let rate = WordErrorRate.of(heard, against: Self.sentence)
        print("WER whisper-server \(format): \(WordErrorRate.formatted(rate))")
        #expect(rate <= 0.15, "heard \(heard.debugDescription)")
    }

    @Test func wordTimestampsComeOnlyWhenAskedFor() async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-words")
        let clip = try Speech.wav(Self.sentence, in: folder, name: "clip")
        let answer = try TranscriptionRequest(file: clip, fields: [
            ("model", "whisper-1"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word"),
        ]).send(to: server)
        #expect(answer.status == 200, "\(answer.body)")
        let object = try answer.object()
        #expect(object["segments"] == nil)  // only words were asked for
        let words = try #require(object["words"] as? [[String: Any]])
        let cues = words.map { Cue(start: $0["start"] as? Double ?? -1, end: $0["end"] as? Double ?? -1,
                                   text: $0["word"] as? String ?? "") }
        #expect(Subtitles.isMonotonic(cues), "\(cues)")
        let rate = WordErrorRate.of(cues.map(\.text).joined(separator: " "), against: Self.sentence)
        print("WER whisper-server words: \(WordErrorRate.formatted(rate))")
        #expect(rate <= 0.15)
    }

    /// (what is wrong, the request's file, its fields, status, the `param` OpenAI names).
    static let badRequests: [(String, String?, [(String, String)], Int, String?)] = [
        ("no file", nil, [("model", "whisper-1")], 400, "file"),
        ("not audio", "notes.txt", [("model", "whisper-1")], 400, nil),
        ("no model", "clip.wav", [], 400, "model"),
        ("unknown format", "clip.wav", [("model", "whisper-1"), ("response_format", "docx")], 400, "response_format"),
        ("language by name", "clip.wav", [("model", "whisper-1"), ("language", "english")], 400, "language"),
        ("temperature over 1", "clip.wav", [("model", "whisper-1"), ("temperature", "3")], 400, "temperature"),
        ("subtitles from gpt-4o", "clip.wav", [("model", "gpt-4o-transcribe"), ("response_format", "srt")], 400,
         "response_format"),
    ]

    @Test(arguments: 0..<badRequests.count)
    func badRequestsGetOpenAIErrors(index: Int) async throws {
        let (label, fileName, fields, status, param) = Self.badRequests[index]
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-errors")
        _ = try Speech.wav("Hello there.", in: folder, name: "clip")
        try "shopping: bread, apples\n".write(to: folder.path("notes.txt"), atomically: true, encoding: .utf8)
        let answer = try TranscriptionRequest(file: fileName.map(folder.path), fields: fields).send(to: server)
        #expect(answer.status == status, "\(label): \(answer.body)")
        let error = try answer.openAIError()
        #expect(error["type"] as? String == "invalid_request_error", "\(label)")
        #expect(error["param"] as? String == param, "\(label)")
        #expect(!(error["message"] as? String ?? "").isEmpty, "\(label)")
    }

    @Test(arguments: [false, true])
    func uploadsOverTheLimitAre413(waitForContinue: Bool) async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-413")
        let limit = 26_214_400
        let atLimit = folder.path("at-limit.wav"), overLimit = folder.path("over-limit.wav")
        let farOver = folder.path("far-over.wav")
        try Data(count: limit).write(to: atLimit)
        try Data(count: limit + 1).write(to: overLimit)
        try Data(count: limit + 4 << 20).write(to: farOver)  // refused from Content-Length alone
        // curl asks `Expect: 100-continue` for big bodies; an empty Expect header makes it send at once.
        let curl = waitForContinue ? [] : ["-H", "Expect:"]

        for file in [overLimit, farOver] {
            let over = try TranscriptionRequest(file: file, curlArguments: curl).send(to: server)
            #expect(over.status == 413, "\(file.lastPathComponent): \(over.body)")
            #expect((try over.openAIError()["message"] as? String ?? "").contains("26214400"))
        }

        // At the limit the file is accepted by size and judged by content: zeros are no audio.
        let at = try TranscriptionRequest(file: atLimit, curlArguments: curl).send(to: server)
        #expect(at.status == 400, "\(at.body)")
    }

    @Test func concurrentUploadsAreEachAnsweredWithTheirOwnTranscript() async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-concurrent")
        let sentences = [
            "The train to the city was late again, so I read a book on the platform.",
            "My brother bought a red bicycle and rode it along the canal.",
            "We should call the plumber tomorrow morning to fix the kitchen sink.",
        ]
        // One curl, three transfers opened at once (--parallel-immediate), so the uploads overlap.
        var arguments = ["--parallel", "--parallel-immediate", "--parallel-max", "3"]
        var outputs: [URL] = []
        for (index, sentence) in sentences.enumerated() {
            let clip = try Speech.wav(sentence, in: folder, name: "clip\(index)")
            let output = folder.path("answer\(index).json")
            outputs.append(output)
            if index > 0 { arguments.append("--next") }
            arguments += ["-s", "-o", output.path, "-w", "%{http_code}\n", "-F", "file=@\(clip.path)",
                          "--form-string", "model=whisper-1", server.baseURL + "/audio/transcriptions"]
        }
        let statuses = try runTool("curl", arguments).split(separator: "\n")
        #expect(statuses == ["200", "200", "200"])
        for (sentence, output) in zip(sentences, outputs) {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: output)) as? [String: Any]
            let heard = object?["text"] as? String ?? ""
            let rate = WordErrorRate.of(heard, against: sentence)
            print("WER whisper-server concurrent: \(WordErrorRate.formatted(rate))")
            #expect(rate <= 0.15, "heard \(heard.debugDescription) for \(sentence.debugDescription)")
        }
        #expect(try runTool("curl", ["-sf", server.baseURL.replacingOccurrences(of: "/v1", with: "/health")])
            .contains("\"ok\""))
    }

    @Test func healthNamesTheModelAndUnknownPathsAre404() async throws {
        let server = try await WhisperServer.shared()
        let health = try TranscriptionRequest(file: nil, fields: []).send(to: server, path: "/health")
        #expect(health.status == 200)
        #expect(try health.object()["model"] as? String == "tiny.en")
        let missing = try TranscriptionRequest(file: nil, fields: [("model", "whisper-1")])
            .send(to: server, path: "/v1/audio/translate")
        #expect(missing.status == 404)
        #expect(try missing.openAIError()["type"] as? String == "invalid_request_error")
    }

    @Test func modelsListsTheServedModelInOpenAIsShape() async throws {
        let server = try await WhisperServer.shared()
        let list = try TranscriptionRequest(file: nil, fields: []).send(to: server, path: "/v1/models")
        #expect(list.status == 200, "\(list.body)")
        let object = try list.object()
        #expect(object["object"] as? String == "list")
        let models = try #require(object["data"] as? [[String: Any]])
        #expect(models.count == 1)
        let model = try #require(models.first)
        #expect(Set(model.keys) == ["id", "object", "created", "owned_by"])
        #expect(model["id"] as? String == "tiny.en")
        #expect(model["object"] as? String == "model")
        #expect((model["created"] as? Int ?? 0) > 0)

        let one = try TranscriptionRequest(file: nil, fields: []).send(to: server, path: "/v1/models/tiny.en")
        #expect(one.status == 200)
        #expect(try one.object()["id"] as? String == "tiny.en")
        let other = try TranscriptionRequest(file: nil, fields: []).send(to: server, path: "/v1/models/whisper-9")
        #expect(other.status == 404)
        #expect(try other.openAIError()["code"] as? String == "model_not_found")
    }

    /// German the base model hears well in espeak-ng's voice at 140 words a minute (it renders
    /// it as "Today is a nice day. I am with the bike in the city.").
    static let german = "Heute war ein schöner Tag. Ich bin mit dem Fahrrad in die Stadt gefahren."

    /// The lowercased words of `text`.
    static func words(_ text: String) -> Set<String> {
        Set(text.lowercased().split { !$0.isLetter }.map(String.init))
    }

    @Test func baseTranscribesGermanAndNamesTheLanguage() async throws {
        let server = try await WhisperServer.shared(model: .base)
        let folder = try TemporaryFolder("whisper-german")
        let clip = try Speech.wav(Self.german, voice: "de", speed: 140, in: folder, name: "german")
        let answer = try TranscriptionRequest(file: clip, fields: [("model", "whisper-1"), ("response_format", "verbose_json")])
            .send(to: server)
        #expect(answer.status == 200, "\(answer.body)")
        let object = try answer.object()
        #expect(object["task"] as? String == "transcribe")
        #expect(object["language"] as? String == "german", "\(answer.body)")  // detected, named as OpenAI does
        let heard = Self.words(object["text"] as? String ?? "")
        #expect(heard.intersection(["heute", "tag", "fahrrad", "stadt", "gefahren"]).count >= 2, "\(heard)")
        let health = try TranscriptionRequest(file: nil, fields: []).send(to: server, path: "/health")
        #expect(try health.object()["model"] as? String == "base")
    }

    @Test func baseTranslatesGermanSpeechIntoEnglish() async throws {
        let server = try await WhisperServer.shared(model: .base)
        let folder = try TemporaryFolder("whisper-translate")
        let clip = try Speech.wav(Self.german, voice: "de", speed: 140, in: folder, name: "german")
        let answer = try TranscriptionRequest(file: clip, fields: [("model", "whisper-1"), ("response_format", "verbose_json")])
            .send(to: server, path: "/v1/audio/translations")
        #expect(answer.status == 200, "\(answer.body)")
        let object = try answer.object()
        #expect(object["task"] as? String == "translate")
        #expect(object["language"] as? String == "german")  // the language spoken, not the one written
        #expect(!(object["segments"] as? [[String: Any]] ?? []).isEmpty)
        let text = object["text"] as? String ?? ""
        let english = Self.words(text).intersection(["day", "nice", "beautiful", "lovely", "great", "bike", "bicycle",
                                                     "cycled", "city", "town"])
        #expect(english.count >= 2, "translated as \(text.debugDescription)")
        #expect(Self.words(text).intersection(["heute", "fahrrad", "stadt"]).isEmpty, "not translated: \(text)")
    }

    @Test func anEnglishOnlyModelRefusesToTranslateInOpenAIsShape() async throws {
        let server = try await WhisperServer.shared()
        let folder = try TemporaryFolder("whisper-no-translate")
        let clip = try Speech.wav("Hello there.", in: folder, name: "clip")
        let answer = try TranscriptionRequest(file: clip, fields: [("model", "whisper-1")])
            .send(to: server, path: "/v1/audio/translations")
        #expect(answer.status == 400, "\(answer.body)")
        let error = try answer.openAIError()
        #expect(error["type"] as? String == "invalid_request_error")
        #expect(error["param"] as? String == "model")
        let message = error["message"] as? String ?? ""
        #expect(message.contains("tiny.en is English-only and cannot translate") && message.contains("--model base"),
                "\(message)")
    }

    /// Python's http.server writes a response's headers and its body in two writes. Without
    /// TCP_NODELAY, Nagle's algorithm holds the body until the headers are acknowledged, and
    /// the client delays that ACK by up to 40 ms: every request on a kept-alive connection
    /// would wait ~40 ms however fast the server is. /health answers at once, so a round trip
    /// here is the connection's cost alone.
    @Test func aKeptAliveConnectionIsAnsweredWithoutWaitingForDelayedAcks() async throws {
        let server = try await WhisperServer.shared()
        let connection = try KeptAliveConnection(port: server.port)  // one connection for every request
        let clock = ContinuousClock()
        var roundTrips: [Duration] = []
        for _ in 0..<21 {
            var answer: KeptAliveConnection.Answer?
            let elapsed = try clock.measure {
                answer = try connection.roundTrip("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            }
            #expect(answer?.status == 200)
            #expect(answer?.body.contains("\"ok\"") == true)
            roundTrips.append(elapsed)
        }
        let median = roundTrips.sorted()[roundTrips.count / 2]
        print("whisper-server kept-alive /health: median round trip \(median)")
        #expect(median < .milliseconds(15), "median \(median) over \(roundTrips)")
    }
}
