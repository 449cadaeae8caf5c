import Foundation
import Logging
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalTranscription

/// The real libcurl client against the stub server on 127.0.0.1, which parses every
/// multipart body and checks it against the API's contract.
@Suite struct WhisperClientTests {
    static let key = "sk-test-9f8e7d6c5b4a"

    func client(_ server: StubWhisperServer, key: String? = WhisperClientTests.key, timeout: Double = 30) -> WhisperClient {
        var configuration = WhisperClient.Configuration(baseURL: server.baseURL, apiKey: key)
        configuration.timeout = timeout
        return WhisperClient(configuration: configuration, logger: Logger(label: "test"))
    }

    func upload(_ client: WhisperClient, _ requests: [TranscriptionRequest]) async throws -> [Result<TranscriptionResult, TranscriptionError>] {
        try await onOwnThread {
            let connection = try client.makeConnection()
            return requests.map { request in Result { () throws(TranscriptionError) in try connection.transcribe(request) } }
        }
    }

    @Test func sendsEveryFieldTheFilenameAndTheKey() async throws {
        let folder = try TemporaryFolder()
        // As long as the stub's answer (0–1.5 s, 1.5–3.25 s), which it fits to the audio.
        let audio = try makeTone(at: folder.path("voice memo – Grüße.wav"), seconds: 3.25)
        let server = try StubWhisperServer(expectedKey: Self.key)
        let options = TranscriptionOptions(model: "whisper-1", language: "de", prompt: "Grüße aus Köln", temperature: 0.2)
        let results = try await upload(client(server), [TranscriptionRequest(file: audio, options: options)])

        let result = try results[0].get()
        #expect(result.text == "Transcript of voice memo – Grüße.")
        #expect(result.language == "en")  // verbose_json names it; kept as its code
        #expect(result.segments.map(\.start) == [0, 1.5])
        #expect(result.segments.last?.end == 3.25)

        let request = try #require(try server.requests().first)
        #expect(request.problems.isEmpty)
        #expect(request.authorizationOk == true)
        #expect(request.file?.filename == "voice memo – Grüße.wav")
        #expect(request.file?.contentType == "audio/wav")
        #expect(request.file?.sha256 == (try sha256sum(audio)))
        #expect(request.fields == [
            "model": ["whisper-1"], "response_format": ["verbose_json"], "timestamp_granularities[]": ["segment", "word"],
            "language": ["de"], "prompt": ["Grüße aus Köln"], "temperature": ["0.2"],
        ])
    }

    @Test func asksGPT4oTranscribeModelsForPlainJSON() async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("a.flac"))
        let server = try StubWhisperServer(expectedKey: Self.key)
        let results = try await upload(client(server), [
            TranscriptionRequest(file: audio, options: TranscriptionOptions(model: "gpt-4o-mini-transcribe")),
        ])
        let result = try results[0].get()
        #expect(result.text == "Transcript of a.")
        #expect(result.segments.isEmpty)
        let request = try #require(try server.requests().first)
        #expect(request.problems.isEmpty)
        #expect(request.field("response_format") == "json")
        #expect(request.fields?["timestamp_granularities[]"] == nil)
        #expect(request.file?.contentType == "audio/flac")
    }

    @Test func reusesOneConnectionForAWorkersUploads() async throws {
        let folder = try TemporaryFolder()
        let files = try (1...3).map { try makeTone(at: folder.path("\($0).wav"), frequency: 300 + $0) }
        let server = try StubWhisperServer()
        let results = try await upload(client(server, key: nil), files.map { TranscriptionRequest(file: $0, options: .init()) })
        #expect(results.allSatisfy { (try? $0.get()) != nil })
        let requests = try server.requests()
        #expect(requests.count == 3)
        #expect(Set(requests.map(\.connection)).count == 1)
        #expect(requests.allSatisfy { $0.problems.isEmpty })
    }

    struct FaultCase: Sendable, CustomTestStringConvertible {
        let behaviour: StubWhisperServer.Behaviour
        let kind: TranscriptionError.Kind
        let disposition: TranscriptionError.Disposition
        var testDescription: String { "\(kind)" }
    }

    @Test(arguments: [
        FaultCase(behaviour: .error(status: 401, code: "invalid_api_key", message: "Incorrect API key provided"), kind: .unauthorized, disposition: .stopRun),
        FaultCase(behaviour: .error(status: 429, code: "insufficient_quota", message: "You exceeded your current quota"), kind: .quotaExceeded, disposition: .stopRun),
        FaultCase(behaviour: .error(status: 429, code: "rate_limit_exceeded", retryAfterMs: 250), kind: .rateLimited, disposition: .retry),
        FaultCase(behaviour: .error(status: 400, message: "Audio file might be corrupted or unsupported"), kind: .badRequest, disposition: .failFile),
        FaultCase(behaviour: .error(status: 413, message: "Maximum content size limit exceeded"), kind: .tooLarge, disposition: .failFile),
        FaultCase(behaviour: .error(status: 500), kind: .serverError, disposition: .retry),
        FaultCase(behaviour: .error(status: 503, retryAfter: 2), kind: .serverError, disposition: .retry),
        FaultCase(behaviour: .error(status: 408), kind: .serverError, disposition: .retry),
        FaultCase(behaviour: .reset, kind: .connection, disposition: .retry),
        FaultCase(behaviour: .malformed, kind: .malformedResponse, disposition: .retry),
        FaultCase(behaviour: .slow(3), kind: .timeout, disposition: .retry),
    ])
    func classifiesEachFailure(_ fault: FaultCase) async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("x.wav"))
        let server = try StubWhisperServer(rules: [.init(responses: [fault.behaviour])], expectedKey: Self.key)
        let results = try await upload(client(server, timeout: 1), [TranscriptionRequest(file: audio, options: .init())])
        guard case .failure(let error) = results[0] else {
            Issue.record("expected a failure for \(fault.kind)")
            return
        }
        #expect(error.kind == fault.kind)
        #expect(error.disposition == fault.disposition)
        #expect(!error.description.contains(Self.key))
        if case let .error(status, _, message, retryAfter, retryAfterMs) = fault.behaviour {
            #expect(error.status == status)
            if let message { #expect(error.description.contains(message)) }
            #expect(error.retryAfter == retryAfterMs.map { Double($0) / 1000 } ?? retryAfter)
        }
    }

    @Test func neverRepeatsTheKeyAServerEchoes() async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("x.wav"))
        let server = try StubWhisperServer(rules: [.init(responses: [.echoKey])], expectedKey: Self.key)
        let results = try await upload(client(server), [TranscriptionRequest(file: audio, options: .init())])
        guard case .failure(let error) = results[0] else { Issue.record("expected 401"); return }
        #expect(error.kind == .unauthorized)
        #expect(error.description.contains("Incorrect API key provided: [redacted]"))
        #expect(!error.description.contains(Self.key))
        #expect(!(error.serverMessage ?? "").contains(Self.key))
    }

    @Test func abandonsAnUploadThatStopsMoving() async throws {
        let folder = try TemporaryFolder()
        // Larger than the loopback socket buffers, so the upload stalls while the server waits.
        let audio = folder.path("long.wav")
        _ = FileManager.default.createFile(atPath: audio.path, contents: Data("RIFF".utf8))
        let handle = try FileHandle(forWritingTo: audio)
        try handle.truncate(atOffset: 64 << 20)
        try handle.close()
        let server = try StubWhisperServer(stall: 4)
        var configuration = WhisperClient.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.lowSpeedTime = 1
        let client = WhisperClient(configuration: configuration, logger: Logger(label: "test"))
        let results = try await upload(client, [TranscriptionRequest(file: audio, options: .init())])
        guard case .failure(let error) = results[0] else { Issue.record("expected a stall"); return }
        #expect(error.kind == .timeout)
        #expect(error.description.contains("stalled"))
    }

    @Test func reportsAnUnreachableServer() async throws {
        let port = try closedLoopbackPort()
        let configuration = WhisperClient.Configuration(baseURL: "http://127.0.0.1:\(port)/v1", apiKey: nil)
        let client = WhisperClient(configuration: configuration, logger: Logger(label: "test"))
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("x.wav"))
        let results = try await upload(client, [TranscriptionRequest(file: audio, options: .init())])
        guard case .failure(let error) = results[0] else { Issue.record("expected a failure"); return }
        #expect(error.kind == .unreachable)
        #expect(error.nothingListens, "refused on this machine: no server runs there")
        #expect(error.description.contains("127.0.0.1:\(port)"))
    }

    @Test func failsAMissingFileWithoutUploading() async throws {
        let server = try StubWhisperServer()
        let results = try await upload(client(server, key: nil), [
            TranscriptionRequest(file: URL(fileURLWithPath: "/nonexistent/gone.wav"), options: .init()),
        ])
        guard case .failure(let error) = results[0] else { Issue.record("expected a failure"); return }
        #expect(error.kind == .unreadableFile)
        #expect(error.disposition == .failFile)
        #expect(try server.requests().isEmpty)
    }

    @Test func abortSignalStopsATransferInFlight() async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("x.wav"))
        let server = try StubWhisperServer(rules: [.init(responses: [.slow(20)])])
        let client = client(server, key: nil)
        let abort = AbortSignal()
        async let outcome = onOwnThread { () -> TranscriptionError? in
            let connection = try client.makeConnection(abort: abort)
            do { _ = try connection.transcribe(TranscriptionRequest(file: audio, options: .init())) } catch let error as TranscriptionError { return error }
            return nil
        }
        try await Task.sleep(for: .milliseconds(300))
        abort.raise()
        let error = try await outcome
        #expect(error?.kind == .cancelled)
    }
}
