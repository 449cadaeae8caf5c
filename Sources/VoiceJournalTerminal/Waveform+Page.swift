extension Waveform {
    /// What is known of the file drawn.
    public struct FileFacts: Sendable, Equatable {
        public var name: String
        public var format: String
        public var sampleRate: Int
        public var channels: Int
        public var durationSeconds: Double
        public var peakDBFS: Double
        public var rmsDBFS: Double

        public init(name: String, format: String, sampleRate: Int, channels: Int, durationSeconds: Double,
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
    public static func page(_ file: FileFacts, columns: [Column], width: Int, height: Int, color: Bool) -> [String] {
        let layout = file.channels == 1 ? "mono" : file.channels == 2 ? "stereo" : "\(file.channels) channels"
        let header = "\(TerminalText.escaped(file.name))  \(file.format) · \(file.sampleRate) Hz · \(layout) · "
            + "\(MeterLine.clock(file.durationSeconds)) · peak \(MeterLine.dbfs(file.peakDBFS)) dBFS · "
            + "rms \(MeterLine.dbfs(file.rmsDBFS)) dBFS"
        return [header] + render(columns, height: height, color: color) + timeAxis(width: width, durationSeconds: file.durationSeconds)
    }
}
