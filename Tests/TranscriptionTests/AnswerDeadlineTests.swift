import Foundation
import Logging
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalTranscription

/// Every upload's answer has a deadline that grows with the audio sent: a server that takes
/// the upload and never answers is given up on then (`noAnswer`), long before the whole
/// request's timeout, while a slow answer within the deadline still arrives.
@Suite struct AnswerDeadlineTests {
    func connection(_ server: StubWhisperServer, answerTimeout: Double, perAudioSecond: Double) -> WhisperClient {
        var configuration = WhisperClient.Configuration(baseURL: server.baseURL, apiKey: nil)
        configuration.answerTimeout = answerTimeout
        configuration.answerTimeoutPerAudioSecond = perAudioSecond
        return WhisperClient(configuration: configuration, logger: Logger(label: "test"))
    }

    func upload(_ client: WhisperClient, _ request: TranscriptionRequest) async throws -> (Result<TranscriptionResult, TranscriptionError>, Double) {
        try await onOwnThread {
            let connection = try client.makeConnection()
            let started = Date()
            let result = Result { () throws(TranscriptionError) in try connection.transcribe(request) }
            return (result, Date().timeIntervalSince(started))
        }
    }

    @Test func theDeadlineIsABasePlusAMultipleOfTheAudio() {
        var configuration = WhisperClient.Configuration(baseURL: "http://127.0.0.1:1/v1", apiKey: nil)
        #expect(configuration.answerDeadline(audioSeconds: 20) == 100)
        #expect(configuration.answerDeadline(audioSeconds: nil) == nil)
        configuration.answerTimeout = 5
        configuration.answerTimeoutPerAudioSecond = 0.5
        #expect(configuration.answerDeadline(audioSeconds: 600) == 305)
        let resolved = try? openAIConfiguration("http://127.0.0.1:1/v1", environment: [
            "VOICEJOURNAL_ANSWER_TIMEOUT": "2", "VOICEJOURNAL_ANSWER_TIMEOUT_PER_AUDIO_SECOND": "0.25"])
        #expect(resolved?.answerDeadline(audioSeconds: 8) == 4)
        // A huge whole-request timeout is bounded (libcurl counts milliseconds in a long).
        let huge = try? openAIConfiguration("http://127.0.0.1:1/v1",
                                                            environment: ["VOICEJOURNAL_HTTP_TIMEOUT": "1e300"])
        #expect(huge?.timeout == 86_400)
    }

    @Test func aServerThatNeverAnswersMissesTheDeadline() async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("a.wav"), seconds: 1)
        let server = try StubWhisperServer(rules: [.init(responses: [], then: .hang)])
        let client = connection(server, answerTimeout: 1, perAudioSecond: 1)
        let (result, seconds) = try await upload(client, TranscriptionRequest(file: audio, options: .init(), audioSeconds: 1))
        guard case .failure(let error) = result else {
            Issue.record("a server that never answers gave a result")
            return
        }
        #expect(error.kind == .noAnswer, "\(error)")
        #expect(error.description.contains("did not answer within 2 s"), "\(error.description)")
        #expect(seconds >= 2 && seconds < 5, "given up after \(seconds) s")
    }

    @Test func aSlowAnswerWithinTheDeadlineArrives() async throws {
        let folder = try TemporaryFolder()
        let audio = try makeTone(at: folder.path("a.wav"), seconds: 1)
        let server = try StubWhisperServer(delay: 1.5)
        // 1 s plus 2 s for the second of audio: the answer after 1.5 s is in time.
        let client = connection(server, answerTimeout: 1, perAudioSecond: 2)
        let (result, _) = try await upload(client, TranscriptionRequest(file: audio, options: .init(), audioSeconds: 1))
        #expect(try result.get().text == "Transcript of a.")
    }
}
