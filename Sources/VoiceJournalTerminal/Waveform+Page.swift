extension Waveform {
    /// What is known of the file drawn.
    package struct FileFacts: Sendable, Equatable {
        package var name: String
        package var format: String
        package var sampleRate: Int
        package var channels: Int
        package var durationSeconds: Double
        package var peakDBFS: Double
        package var rmsDBFS: Double

        package init(name: String, format: String, sampleRate: Int, channels: Int, durationSeconds: Double,
                    peakDBFS: Double, rmsDBFS: Double) {
            self.name = name
            self.format = format
            self.sampleRate = sampleRate
            self.channels = channels
            self.durationSeconds = durationSeconds
            self.peakDBFS = peakDBFS
            self.rmsDBFS = rmsDBFS
        }
    }

    /// What `meter FILE` prints: a header line (name, format, rate, channels, length, levels),
    /// the waveform `height` rows high and its time axis `width` columns wide.
    package static func page(_ file: FileFacts, columns: [Column], width: Int, height: Int, color: Bool) -> [String] {
        let layout = file.channels == 1 ? "mono" : file.channels == 2 ? "stereo" : "\(file.channels) channels"
        let header = "\(TerminalText.escaped(file.name))  \(file.format) · \(file.sampleRate) Hz · \(layout) · "
            + "\(MeterLine.clock(file.durationSeconds)) · peak \(MeterLine.dbfs(file.peakDBFS)) dBFS · "
            + "rms \(MeterLine.dbfs(file.rmsDBFS)) dBFS"
        return [header] + render(columns, height: height, color: color) + timeAxis(width: width, durationSeconds: file.durationSeconds)
    }
}
