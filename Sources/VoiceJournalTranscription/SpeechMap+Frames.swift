import Foundation

/// The frame levels a `SpeechMap` still needs (its noise-floor window), one byte per frame in
/// half-decibel steps, with each frame's voicing, and a histogram of the frames in the current
/// window so a quantile costs 256 steps rather than a sort.
struct FrameLevelWindow: Sendable {
    private var codes: [UInt8] = []
    private var readings: [VoicingMeter.Reading] = []
    /// The frame number of `codes[0]`.
    private var base = 0
    private var histogram = [Int](repeating: 0, count: 256)
    /// The frames the histogram holds; both ends only move forward.
    private var counted = 0..<0

    /// Half-decibel steps from -127.5 dBFS (and digital silence) up to 0 dBFS.
    static func code(dbfs: Double) -> UInt8 {
        guard dbfs.isFinite else { return 0 }
        return UInt8(min(max(((dbfs + 127.5) * 2).rounded(), 0), 255))
    }

    static func dbfs(code: UInt8) -> Double { Double(code) / 2 - 127.5 }

    mutating func append(_ code: UInt8, reading: VoicingMeter.Reading) {
        codes.append(code)
        readings.append(reading)
    }

    /// How many frame levels are held (bounded by the window, whatever the length).
    var storedCount: Int { codes.count }

    func dbfs(frame: Int) -> Double { Self.dbfs(code: codes[frame - base]) }

    func reading(frame: Int) -> VoicingMeter.Reading { readings[frame - base] }

    /// The level below which `quantile` of the frames in `frames` lie. Successive calls must
    /// not move either end of the range backwards.
    mutating func quantileDBFS(_ quantile: Double, frames: Range<Int>) -> Double {
        var upper = counted.upperBound
        while upper < frames.upperBound {
            histogram[Int(codes[upper - base])] += 1
            upper += 1
        }
        var lower = counted.lowerBound
        while lower < min(frames.lowerBound, upper) {
            histogram[Int(codes[lower - base])] -= 1
            lower += 1
        }
        counted = lower..<upper
        guard !counted.isEmpty else { return -.infinity }
        let wanted = max(Int((quantile * Double(counted.count)).rounded(.up)), 1)
        var seen = 0
        for (code, count) in histogram.enumerated() {
            seen += count
            if seen >= wanted { return Self.dbfs(code: UInt8(code)) }
        }
        return 0
    }

    /// Drops the levels of frames before `frame` that the histogram no longer holds.
    mutating func forget(before frame: Int) {
        let drop = min(frame, counted.lowerBound) - base
        // Dropping in batches keeps the cost of shifting the array negligible.
        guard drop >= 4096 else { return }
        codes.removeFirst(drop)
        readings.removeFirst(drop)
        base += drop
    }
}

/// Turns a stream of per-frame judgements into stretches of speech: frames loud enough make a
/// stretch, gaps shorter than the hangover are bridged, and a stretch is kept when it is at
/// least the shortest word long and its `VoiceEvidence` says voice.
struct SpeechRunBuilder: Sendable {
    let bridgeFrames: Int
    let shortestFrames: Int
    let rules: VoiceEvidence.Rules?
    private var runs: [Range<Int>] = []
    /// The stretch being built: from its first loud frame to just after its latest.
    private var open: Range<Int>?
    private var evidence = VoiceEvidence()
    /// Every stretch judged with its evidence (only when `keepsJudgements`, for tuning).
    private(set) var judged: [(Range<Int>, VoiceEvidence)] = []
    var keepsJudgements = false

    /// `rules` nil: every loud stretch is speech (energy alone).
    init(bridgeFrames: Int, shortestFrames: Int, rules: VoiceEvidence.Rules?) {
        self.bridgeFrames = max(bridgeFrames, 0)
        self.shortestFrames = max(shortestFrames, 1)
        self.rules = rules
    }

    /// Takes the judgement of the next frame (frames arrive in order).
    mutating func add(frame: Int, isLoud: Bool, levelDBFS: Double, reading: VoicingMeter.Reading) {
        guard isLoud else { return }
        if let run = open, frame - run.upperBound < bridgeFrames {
            if frame > run.upperBound { evidence.addGap() }
            open = run.lowerBound..<(frame + 1)
        } else {
            close()
            open = frame..<(frame + 1)
        }
        if let rules { evidence.addLoud(levelDBFS: levelDBFS, reading: reading, rules: rules) }
    }

    /// The stretches so far, the open one included if it is long enough and a voice.
    func finished() -> [Range<Int>] {
        var copy = self
        copy.close()
        return copy.runs
    }

    /// The judgements so far, the open stretch's included.
    func finishedJudgements() -> [(Range<Int>, VoiceEvidence)] {
        var copy = self
        copy.keepsJudgements = true
        copy.close()
        return copy.judged
    }

    private mutating func close() {
        if let run = open, run.count >= shortestFrames {
            if keepsJudgements { judged.append((run, evidence)) }
            if rules.map(evidence.isVoice) ?? true { runs.append(run) }
        }
        open = nil
        evidence = VoiceEvidence()
    }
}
