@testable import VoiceJournalAudio
import Foundation
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct LevelMeterTests {
    /// One 50 ms block at 48 kHz.
    private func block(_ samples: [Int16], rate: Int = 48000, channels: Int = 1) -> LevelMeter.Reading {
        var meter = LevelMeter(sampleRate: rate, channels: channels)
        return meter.measure(samples)
    }

    @Test func sineAtMinusSixHasKnownPeakAndRMS() {
        let reading = block(CaptureFixtures.sine(sampleRate: 48000, seconds: 0.05, dbfs: CaptureFixtures.halfScaleDBFS))
        #expect(abs(reading.peakDBFS - -6.02) < 0.01)
        #expect(abs(reading.rmsDBFS - -9.03) < 0.01)
        #expect(!reading.clipped)
    }

    @Test func stereoBlocksAreMeasuredAcrossBothChannels() {
        let left = CaptureFixtures.sine(sampleRate: 48000, seconds: 0.05, dbfs: CaptureFixtures.halfScaleDBFS)
        let right = CaptureFixtures.silence(sampleRate: 48000, seconds: 0.05)
        let reading = block(CaptureFixtures.interleaved(left, right), channels: 2)
        #expect(abs(reading.peakDBFS - -6.02) < 0.01)
        // Half the samples are silent: the mean square halves, 3.01 dB below the sine's RMS.
        #expect(abs(reading.rmsDBFS - (-9.03 - 3.01)) < 0.02)
    }

    @Test func digitalSilenceReportsTheFloorNotInfinity() {
        let reading = block(CaptureFixtures.silence(sampleRate: 48000, seconds: 0.05))
        #expect(reading.peakDBFS == LevelMeter.floorDBFS)
        #expect(reading.rmsDBFS == LevelMeter.floorDBFS)
        #expect(reading.peakDBFS.isFinite && !reading.rmsDBFS.isNaN)
        var meter = LevelMeter(sampleRate: 16000, channels: 1)
        #expect(meter.measure([]).rmsDBFS == LevelMeter.floorDBFS)
        #expect(meter.overall == .silence)
    }

    @Test func fullScaleSquareWaveIsClippedAtZeroDBFS() {
        let square = (0..<2400).map { $0 / 24 % 2 == 0 ? Int16.max : Int16.min }
        let reading = block(square)
        #expect(reading.clipped)
        #expect(abs(reading.peakDBFS) < 0.01)
        #expect(abs(reading.rmsDBFS) < 0.01)
    }

    @Test func peakHoldStaysThenDecays() {
        var meter = LevelMeter(sampleRate: 1000, channels: 1, holdSeconds: 1, decayDBPerSecond: 20)
        meter.measure(CaptureFixtures.sine(sampleRate: 1000, seconds: 0.1, dbfs: -6, frequency: 250))
        let quiet = CaptureFixtures.sine(sampleRate: 1000, seconds: 0.1, dbfs: -40, frequency: 250)
        for _ in 0..<10 { meter.measure(quiet) }  // 1.0 s: still held
        #expect(abs(meter.holdDBFS - -6.0) < 0.01)
        for _ in 0..<5 { meter.measure(quiet) }   // 0.5 s past the hold: 10 dB lower
        #expect(abs(meter.holdDBFS - -16.0) < 0.01)
        for _ in 0..<30 { meter.measure(quiet) }  // never below the current level
        #expect(abs(meter.holdDBFS - -40.0) < 0.01)
    }

    @Test func overallAndSectionsCoverTheirStretchOfAudio() {
        var meter = LevelMeter(sampleRate: 48000, channels: 1)
        meter.measure(CaptureFixtures.sine(sampleRate: 48000, seconds: 0.5, dbfs: CaptureFixtures.halfScaleDBFS))
        let first = meter.takeSection()
        meter.measure(CaptureFixtures.sine(sampleRate: 48000, seconds: 0.5, dbfs: -26))
        let second = meter.takeSection()
        #expect(abs(first.peakDBFS - -6.02) < 0.01 && abs(second.peakDBFS - -26) < 0.01)
        #expect(abs(meter.overall.peakDBFS - -6.02) < 0.01)
        // Mean of the two halves' mean squares.
        let expected = 10 * log10((pow(10, -9.0309 / 10) + pow(10, -29.0103 / 10)) / 2)
        #expect(abs(meter.overall.rmsDBFS - expected) < 0.01)
        #expect(meter.frames == 48000)
    }
}

@Suite(.onTestThreads) struct SilenceDetectorTests {
    private let loud = LevelMeter.Reading(peakDBFS: -10, rmsDBFS: -20, clipped: false)
    private let quiet = LevelMeter.Reading(peakDBFS: -50, rmsDBFS: -60, clipped: false)

    /// Feeds the readings in 50-frame blocks; which of them said "stop".
    private func decisions(_ readings: [LevelMeter.Reading], detector: inout SilenceDetector) -> [Bool] {
        readings.map { detector.shouldStop(after: $0, frames: 50) }
    }

    @Test func quietBeforeSpeechNeverStops() {
        var detector = SilenceDetector(seconds: 1, sampleRate: 1000)
        let stops = decisions(Array(repeating: quiet, count: 100), detector: &detector)
        #expect(!stops.contains(true))
        #expect(!detector.heardSpeech)
    }

    @Test func stopsOnceTheQuietAfterSpeechIsLongEnough() {
        var detector = SilenceDetector(seconds: 1, sampleRate: 1000)
        let stops = decisions([loud] + Array(repeating: quiet, count: 20), detector: &detector)
        #expect(stops == Array(repeating: false, count: 20) + [true])
    }

    @Test func speechInTheMiddleRestartsTheCount() {
        var detector = SilenceDetector(seconds: 1, sampleRate: 1000)
        let quietish = Array(repeating: quiet, count: 19)
        let stops = decisions([loud] + quietish + [loud] + quietish + [quiet], detector: &detector)
        #expect(stops == Array(repeating: false, count: 40) + [true])
    }
}
