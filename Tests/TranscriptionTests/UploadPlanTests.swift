import VoiceJournalAudio
import Foundation
import Testing
@testable import VoiceJournalTranscription

@Suite struct UploadPlanTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        var fileExtension = "wav"
        var sizeBytes: Int64
        var durationSeconds: Double
        var speech = SpeechExtent.notMeasured
        var model = "whisper-1"
        var codec = UploadCodec.flac
        var maxRequestBytes = UploadPlan.defaultMaxRequestBytes
        var maxChunkSeconds = UploadPlan.defaultMaxChunkSeconds
        var trim = true
        let expected: UploadPlan.Decision
        var chunkSeconds = UploadPlan.defaultMaxChunkSeconds

        var testDescription: String { name }
    }

    /// 16 kHz mono 16-bit WAV: 32,000 bytes a second.
    static func wavBytes(_ seconds: Double, rate: Double = 16_000, channels: Double = 1) -> Int64 {
        Int64(seconds * rate * channels * 2) + 44
    }

    static let cases: [Case] = [
        Case(name: "a short take goes as it is", sizeBytes: wavBytes(60), durationSeconds: 60,
             speech: .spans(firstSeconds: 0.6, lastSeconds: 59), expected: .asIs),
        Case(name: "a 15-minute 44.1 kHz stereo WAV is too big: split", sizeBytes: wavBytes(900, rate: 44_100, channels: 2),
             durationSeconds: 900, expected: .split(.flac)),
        Case(name: "13 minutes of WAV fit the bytes but not the chunk length: split",
             sizeBytes: wavBytes(780), durationSeconds: 780, expected: .split(.flac)),
        Case(name: "9 minutes of 44.1 kHz stereo fit the length, not the bytes: encoded whole",
             sizeBytes: wavBytes(540, rate: 44_100, channels: 2), durationSeconds: 540, expected: .transcode(.flac)),
        Case(name: "AIFF is not accepted by the API: encoded", fileExtension: "aiff", sizeBytes: wavBytes(30),
             durationSeconds: 30, expected: .transcode(.flac)),
        Case(name: "CAF and W64 neither", fileExtension: ".CAF", sizeBytes: 1_000_000, durationSeconds: 30,
             expected: .transcode(.flac)),
        Case(name: "nor a .opus name", fileExtension: "opus", sizeBytes: 100_000, durationSeconds: 30,
             expected: .transcode(.flac)),
        Case(name: "a phone memo in M4A goes as it is", fileExtension: "M4A", sizeBytes: 4_000_000, durationSeconds: 300,
             expected: .asIs),
        Case(name: "a 30-minute M4A is split", fileExtension: "m4a", sizeBytes: 28_000_000, durationSeconds: 1800,
             expected: .split(.flac)),
        Case(name: "a 30-minute MP3 for gpt-4o-transcribe is split at its cap", fileExtension: "mp3",
             sizeBytes: 14_000_000, durationSeconds: 1800, model: "gpt-4o-transcribe", codec: .opus,
             maxChunkSeconds: 3600, expected: .split(.opus), chunkSeconds: 1400),
        Case(name: "with FLAC the worst-case bytes bind before the cap", fileExtension: "mp3",
             sizeBytes: 14_000_000, durationSeconds: 1800, model: "gpt-4o-transcribe", maxChunkSeconds: 3600,
             expected: .split(.flac), chunkSeconds: Double(UploadPlan.defaultMaxRequestBytes) / 33_000),
        Case(name: "20 minutes for gpt-4o-mini-transcribe fit its cap when chunks may be longer", fileExtension: "mp3",
             sizeBytes: 9_000_000, durationSeconds: 1200, model: "gpt-4o-mini-transcribe", codec: .opus,
             maxChunkSeconds: 3600, expected: .asIs, chunkSeconds: 1400),
        Case(name: "whisper-1 has no cap of its own", fileExtension: "mp3", sizeBytes: 9_000_000,
             durationSeconds: 1800, codec: .opus, maxChunkSeconds: 3600, expected: .asIs,
             chunkSeconds: Double(UploadPlan.defaultMaxRequestBytes) / 16_000),
        Case(name: "Ogg is not sent as it is to gpt-4o models", fileExtension: "ogg", sizeBytes: 500_000,
             durationSeconds: 120, model: "gpt-4o-transcribe", expected: .transcode(.flac)),
        Case(name: "but is to whisper-1", fileExtension: "ogg", sizeBytes: 500_000, durationSeconds: 120, expected: .asIs),
        Case(name: "forced low byte limit: chunks as long as the codec's worst case allows",
             sizeBytes: wavBytes(60), durationSeconds: 60, maxRequestBytes: 330_000, maxChunkSeconds: 20,
             expected: .split(.flac), chunkSeconds: 10),
        Case(name: "forced low chunk length splits a short file", sizeBytes: wavBytes(60), durationSeconds: 60,
             maxChunkSeconds: 15, expected: .split(.flac), chunkSeconds: 15),
        Case(name: "MP3 chunks may hold more seconds for the same bytes", sizeBytes: wavBytes(60), durationSeconds: 60,
             codec: .mp3, maxRequestBytes: 330_000, maxChunkSeconds: 20, expected: .split(.mp3), chunkSeconds: 16.5),
        Case(name: "a minute of silence before speech is worth trimming", sizeBytes: wavBytes(120), durationSeconds: 120,
             speech: .spans(firstSeconds: 60, lastSeconds: 119), expected: .transcode(.flac)),
        Case(name: "unless trimming is off", sizeBytes: wavBytes(120), durationSeconds: 120,
             speech: .spans(firstSeconds: 60, lastSeconds: 119), trim: false, expected: .asIs),
        Case(name: "trimmed, a long silent lead-in lets an over-long file go in one piece",
             sizeBytes: wavBytes(900), durationSeconds: 900, speech: .spans(firstSeconds: 400, lastSeconds: 890),
             expected: .transcode(.flac)),
        Case(name: "silence is not sent at all", sizeBytes: wavBytes(3600), durationSeconds: 3600, speech: .silent,
             expected: .nothingToSend),
    ]

    @Test(arguments: cases)
    func decidesHowARecordingIsSent(_ example: Case) {
        let plan = UploadPlan.make(
            fileExtension: example.fileExtension, sizeBytes: example.sizeBytes,
            durationSeconds: example.durationSeconds, speech: example.speech, model: example.model,
            codec: example.codec, maxRequestBytes: example.maxRequestBytes,
            maxChunkSeconds: example.maxChunkSeconds, trim: example.trim)
        #expect(plan.decision == example.expected)
        #expect(abs(plan.chunkSeconds - example.chunkSeconds) < 0.001)
    }

    @Test(arguments: [
        ("gpt-4o-transcribe", 1400.0), ("gpt-4o-mini-transcribe", 1400), ("GPT-4o-Transcribe-Diarize", 1400),
        ("whisper-1", nil), ("large-v3", nil), ("gpt-4o", nil), ("gpt-4o-mini-tts", nil),
    ] as [(String, Double?)])
    func gpt4oTranscribeModelsAreCappedAt1400Seconds(model: String, cap: Double?) {
        #expect(UploadPlan.durationCapSeconds(model: model) == cap)
    }

    @Test(arguments: UploadCodec.allCases)
    func aDefaultChunkFitsOneRequestAtTheCodecsWorstCase(codec: UploadCodec) {
        // Ten minutes must never need a second request, whatever the audio.
        let bytes = UploadPlan.defaultMaxChunkSeconds * codec.worstCaseBytesPerSecond
        #expect(bytes <= Double(UploadPlan.defaultMaxRequestBytes))
        #expect(codec.typicalBytesPerSecond < codec.worstCaseBytesPerSecond)
        #expect(UploadPlan.defaultMaxChunkSeconds <= UploadPlan.gpt4oTranscribeCapSeconds)
    }

    @Test func leavesRoomForTheMultipartEnvelope() {
        #expect(UploadPlan.defaultMaxRequestBytes == 26_214_400 - 65_536)
        #expect(UploadCodec.opus.fileExtension == "ogg")
    }
}
