import Foundation
import VoiceJournalAudio
import VoiceJournalTerminal

extension Waveform {
    /// `meter FILE`: the file's facts (format, rate, channels, length, peak and RMS) over its
    /// waveform, `width` columns by `height` rows. Throws the decoder's error for a file it cannot read.
    package static func page(of url: URL, width: Int, height: Int, color: Bool) throws -> [String] {
        let summary = try WaveformSummary.make(of: url, columns: width)
        let info = summary.info, levels = summary.levels
        let facts = FileFacts(name: url.lastPathComponent, format: info.format, sampleRate: info.sampleRate, channels: info.channels,
                              durationSeconds: info.durationSeconds, peakDBFS: levels.peakDBFS, rmsDBFS: levels.rmsDBFS)
        let envelope = summary.columns.map { Column(peak: $0.peak, rms: $0.rms) }
        return page(facts, columns: envelope, width: width, height: height, color: color)
    }
}
