import Foundation
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalTranscription

/// Journal-style takes made by the test: espeak-ng speech at known offsets in room noise, and
/// the sounds of a room that are not a voice (a cough, clicks, a hummed chord, a test tone).
/// The speech map must find the speech, and only the speech.
@Suite(.onTestThreads) struct VoiceDetectionTests {
    static let rate = 16_000

    /// A take being assembled: room noise with sounds mixed in at chosen times.
    struct Take {
        private(set) var samples: [Float]
        private var generator = SplitMix(seed: 23)
        /// Where the speech mixed in lies, in seconds.
        private(set) var speech: [Range<Double>] = []

        /// `seconds` of room noise (white noise through a gentle low-pass: a fan's rumble and
        /// hiss) whose RMS is `dbfs`.
        init(seconds: Double, roomDBFS: Double) {
            var noise = [Float](repeating: 0, count: Int(seconds * Double(VoiceDetectionTests.rate)))
            var low = 0.0, squares = 0.0
            for index in noise.indices {
                let white = generator.unit() * 2 - 1
                low = 0.97 * low + 0.03 * white
                let value = 4 * low + 0.3 * white
                noise[index] = Float(value)
                squares += value * value
            }
            let gain = Float(pow(10, roomDBFS / 20) / (squares / Double(max(noise.count, 1))).squareRoot())
            samples = noise.map { $0 * gain }
        }

        /// Mixes `sound` in at `seconds`, scaled so its RMS is `dbfs`.
        mutating func add(_ sound: [Float], at seconds: Double, dbfs: Double) {
            let squares = sound.reduce(0.0) { $0 + Double($1) * Double($1) }
            let gain = Float(pow(10, dbfs / 20) / (squares / Double(max(sound.count, 1))).squareRoot())
            let start = Int(seconds * Double(VoiceDetectionTests.rate))
            for (offset, value) in sound.enumerated() where start + offset < samples.count {
                samples[start + offset] += value * gain
            }
        }

        /// Mixes in espeak-ng saying `text` at `seconds`; its RMS (while it speaks) is about `dbfs`.
        mutating func say(_ text: String, at seconds: Double, dbfs: Double = -25, voice: String = "en-us") throws {
            let spoken = try VoiceDetectionTests.speech(text, voice: voice)
            add(spoken, at: seconds, dbfs: dbfs)
            speech.append(seconds..<(seconds + Double(spoken.count) / Double(VoiceDetectionTests.rate)))
        }

        /// A cough: 0.3 s of noise band-passed to 300–3000 Hz, a 10 ms attack, a fast decay.
        mutating func cough(at seconds: Double, dbfs: Double = -22) {
            let count = Int(0.3 * Double(VoiceDetectionTests.rate))
            var high = 0.0, low = 0.0, previous = 0.0
            let sound = (0..<count).map { index -> Float in
                let white = generator.unit() * 2 - 1
                high = 0.89 * (high + white - previous) // high-pass near 300 Hz
                previous = white
                low = 0.7 * low + 0.3 * high // low-pass near 3 kHz
                let time = Double(index) / Double(VoiceDetectionTests.rate)
                return Float(low * min(time / 0.01, 1) * exp(-time / 0.08))
            }
            add(sound, at: seconds, dbfs: dbfs)
        }

        /// A cluster of `count` clicks (4 ms decaying bursts) 50–250 ms apart.
        mutating func clicks(at seconds: Double, count: Int = 5, dbfs: Double = -20) {
            var time = seconds
            for _ in 0..<count {
                let click = (0..<64).map { Float((generator.unit() * 2 - 1) * exp(-Double($0) / 13)) }
                add(click, at: time, dbfs: dbfs)
                time += 0.05 + 0.2 * generator.unit()
            }
        }

        /// A hummed chord (G, B, D with five harmonics each) held for `seconds`.
        mutating func chord(at seconds: Double, length: Double = 2.5, dbfs: Double = -28) {
            add(VoiceDetectionTests.harmonics(of: [196, 247, 294], seconds: length), at: seconds, dbfs: dbfs)
        }

        /// A steady 1 kHz test tone.
        mutating func tone(at seconds: Double, length: Double = 2, dbfs: Double = -25) {
            let sound = (0..<Int(length * Double(VoiceDetectionTests.rate))).map {
                Float(sin(2 * Double.pi * 1_000 * Double($0) / Double(VoiceDetectionTests.rate)))
            }
            add(sound, at: seconds, dbfs: dbfs)
        }
    }

    /// Notes of `pitches` with five harmonics each, 50 ms fades at both ends.
    static func harmonics(of pitches: [Double], seconds: Double) -> [Float] {
        let count = Int(seconds * Double(rate))
        return (0..<count).map { index in
            let time = Double(index) / Double(rate)
            var value = 0.0
            for pitch in pitches {
                for harmonic in 1...5 { value += sin(2 * Double.pi * pitch * Double(harmonic) * time) / pow(Double(harmonic), 1.5) }
            }
            return Float(value * min(time / 0.05, (seconds - time) / 0.05, 1))
        }
    }

    /// espeak-ng's speech at 16 kHz with its leading and trailing silence cut off.
    static func speech(_ text: String, voice: String) throws -> [Float] {
        let samples = try CaptureFixtures.speech(text, sampleRate: rate, voice: voice).map { Float($0) / 32768 }
        let loud = samples.indices.filter { abs(samples[$0]) > 0.01 }
        guard let first = loud.first, let last = loud.last else { return [] }
        return Array(samples[first...last])
    }

    static func map(_ samples: [Float], settings: SpeechMap.Settings = SpeechMap.Settings()) -> SpeechMap {
        var map = SpeechMap(sampleRate: rate, settings: settings)
        map.append(samples)
        return map
    }

    /// Each utterance is found within `tolerance` of where it lies, and nothing else is.
    static func expectOnlySpeech(_ found: [Range<Double>], in take: Take, tolerance: Double = 0.15) {
        for said in take.speech {
            let overlapping = found.filter { $0.overlaps(said) }
            #expect(!overlapping.isEmpty, "nothing found at \(said)")
            guard let first = overlapping.first, let last = overlapping.last else { continue }
            #expect(abs(first.lowerBound - said.lowerBound) < tolerance, "\(found) against \(said)")
            #expect(abs(last.upperBound - said.upperBound) < tolerance, "\(found) against \(said)")
        }
        let strays = found.filter { stretch in !take.speech.contains { $0.overlaps(stretch) } }
        #expect(strays.isEmpty, "not speech: \(strays)")
    }

    @Test func findsEachUtteranceAndNotTheRoomBetween() throws {
        var take = Take(seconds: 40, roomDBFS: -50)
        try take.say("I think the meeting went well today.", at: 2)
        take.cough(at: 8)
        take.clicks(at: 10.5)
        try take.say("Five five.", at: 14, voice: "en-gb")
        take.chord(at: 19)
        take.clicks(at: 23, count: 8)
        try take.say("Remember to call the bank tomorrow morning.", at: 28, voice: "en-us+f3")
        take.cough(at: 35.5, dbfs: -18)
        let map = Self.map(take.samples)
        Self.expectOnlySpeech(map.speechIntervals, in: take)
    }

    @Test func quietSpeechIsStillSpeech() throws {
        var take = Take(seconds: 20, roomDBFS: -55)
        try take.say("Note to self: buy milk, eggs and bread.", at: 3, dbfs: -35)
        try take.say("Quarter past nine is fine.", at: 12, dbfs: -35, voice: "en-gb")
        Self.expectOnlySpeech(Self.map(take.samples).speechIntervals, in: take)
    }

    enum RoomSound: String, CaseIterable, Sendable {
        case cough, clicks, chord, tone
    }

    @Test(arguments: RoomSound.allCases)
    func aRoomSoundIsNotSpeech(_ sound: RoomSound) {
        var take = Take(seconds: 30, roomDBFS: -50)
        for start in [3.0, 13, 23] {
            switch sound {
            case .cough: take.cough(at: start)
            case .clicks: take.clicks(at: start, count: 6)
            case .chord: take.chord(at: start)
            case .tone: take.tone(at: start)
            }
        }
        let map = Self.map(take.samples)
        #expect(map.speechIntervals.isEmpty)
        #expect(map.speechExtent == .silent)
        // Judged by loudness alone, the same take is full of "speech": the voice is what tells.
        #expect(!Self.map(take.samples, settings: SpeechMap.Settings(requiresVoice: false)).speechIntervals.isEmpty)
    }

    @Test(arguments: [1_000.0, 440])
    func aTestToneInALoudRoomIsNotSpeech(frequency: Double) {
        // Near the noise, the tone's loudness flickers about the threshold and its pitch
        // reading jumps between multiples of its period: only its standing still tells.
        var take = Take(seconds: 30, roomDBFS: -40)
        let tone = (0..<(2 * Self.rate)).map { Float(sin(2 * Double.pi * frequency * Double($0) / Double(Self.rate))) }
        for start in [3.0, 13, 23] { take.add(tone, at: start, dbfs: -31) }
        #expect(Self.map(take.samples).speechIntervals.isEmpty)
    }

    @Test func aTakeWithNoVoiceInItHoldsNoSpeech() {
        var take = Take(seconds: 45, roomDBFS: -48)
        take.clicks(at: 2)
        take.chord(at: 6, length: 3)
        take.cough(at: 12)
        take.tone(at: 18, length: 3)
        take.cough(at: 25, dbfs: -15)
        take.clicks(at: 26, count: 10, dbfs: -12)
        take.chord(at: 35, length: 1.5, dbfs: -22)
        #expect(Self.map(take.samples).speechIntervals.isEmpty)
    }

    @Test func loudNoiseThroughoutIsNotSpeech() {
        // Every frame is loud (the floor's ceiling makes it a candidate): only its voicing tells.
        let take = Take(seconds: 60, roomDBFS: -20)
        #expect(Self.map(take.samples).speechIntervals.isEmpty)
    }

    @Test func speechOverAHumIsStillSpeech() throws {
        var take = Take(seconds: 16, roomDBFS: -50)
        take.chord(at: 1, length: 14, dbfs: -40)
        try take.say("We should revisit the budget before Friday.", at: 5)
        let found = Self.map(take.samples).speechIntervals
        let said = try #require(take.speech.first)
        #expect(found.contains { $0.overlaps(said) })
    }
}
