import Foundation
import Testing
@testable import VoiceJournalTranscription

/// The translation of an upload: what is sent to `/audio/translations`, and the repetition
/// guard on what comes back.
@Suite struct TranslationRequestTests {
    typealias Segment = TranscriptionResult.Segment

    @Test func aTranslationSendsTheSameFileWithoutLanguageOrTimestamps() {
        let options = TranscriptionOptions(model: "whisper-1", language: "de", prompt: "Names: Jürgen", temperature: 0.2)
        let request = TranscriptionRequest(file: URL(fileURLWithPath: "/a/take.flac"), filename: "take.flac", options: options,
                                           audioSeconds: 12)
        let translation = request.translation()
        #expect(translation.task == .translate && request.task == .transcribe)
        #expect(translation.file == request.file && translation.filename == "take.flac" && translation.audioSeconds == 12)
        #expect(translation.fields.map(\.name) == ["model", "response_format", "prompt", "temperature"])
        #expect(translation.fields.map(\.value) == ["whisper-1", "verbose_json", "Names: Jürgen", "0.2"])
        let configuration = WhisperClient.Configuration(baseURL: "http://127.0.0.1:8000/v1/", apiKey: nil)
        #expect(configuration.endpoint(for: translation.task) == "http://127.0.0.1:8000/v1/audio/translations")
        #expect(configuration.endpoint == "http://127.0.0.1:8000/v1/audio/transcriptions")
    }

    @Test(arguments: ["gpt-4o-transcribe", "gpt-4o-mini-transcribe"])
    func gpt4oRunsTranslateWithWhisper1AndSegments(model: String) {
        let request = TranscriptionRequest(file: URL(fileURLWithPath: "/x.wav"), options: .init(model: model))
        #expect(request.responseFormat == .json)
        let translation = request.translation()
        #expect(translation.options.model == "whisper-1" && translation.responseFormat == .verboseJSON)
    }

    @Test func aLocalModelNameIsKeptForTheServerToJudge() {
        let request = TranscriptionRequest(file: URL(fileURLWithPath: "/x.wav"), options: .init(model: "base"))
        #expect(request.translation().options.model == "base")
    }

    @Test func aTranslationThatLoopsIsCutToItsFirstPhrase() {
        let review = TranscriptReview()
        let looping = TranscriptionResult(text: "The bike. It is cold, cold, cold, cold.", segments: [
            Segment(start: 0, end: 2, text: " The bike."),
            Segment(start: 2, end: 9, text: " It is cold, cold, cold, cold."),
        ], model: "whisper-1")
        let cut = review.withoutLoops(looping)
        #expect(cut.result.text == "The bike. It is cold,")
        #expect(cut.result.segments.map(\.text) == [" The bike.", " It is cold,"])
        #expect(cut.leftOut.map(\.reason) == [.repetition])
        // A segment said again and again as segments of its own.
        let repeated = TranscriptionResult(text: "", segments: (0..<4).map {
            Segment(start: Double($0), end: Double($0) + 1, text: " Cold.")
        }, model: "whisper-1")
        #expect(review.withoutLoops(repeated).result.segments.map(\.text) == [" Cold."])
        // Above Whisper's compression ratio with nothing to cut: left out whole.
        let compressed = TranscriptionResult(text: "a b", segments: [
            Segment(start: 0, end: 1, text: " Fine."), Segment(start: 1, end: 2, text: " Mmm hmm, yes okay so", compressionRatio: 2.8),
        ], model: "whisper-1")
        #expect(review.withoutLoops(compressed).result.text == "Fine.")
        // Text alone is cut the same way; an answer without loops comes back as it was.
        let plain = TranscriptionResult(text: "Go home go home go home go home now", model: "whisper-1")
        #expect(review.withoutLoops(plain).result.text == "Go home now")
        #expect(review.withoutLoops(looping.withText("Nothing repeats here.")).result.text == "Nothing repeats here.")
    }
}

private extension TranscriptionResult {
    func withText(_ text: String) -> TranscriptionResult {
        TranscriptionResult(text: text, segments: [.init(start: 0, end: 1, text: " " + text)], model: model)
    }
}
