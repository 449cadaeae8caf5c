import ArgumentParser
import VoiceJournal
import VoiceJournalPages
import VoiceJournalSettings

/// Which microphone and how to capture from it: shared by `record`, `answer` and `meter`.
/// Device and rate not given fall back to the config file, then the defaults: a command
/// calls `resolve(_:with:)` before capturing, which takes them from its settings. Until then
/// `device` and `rate` are the flags', else the built-in defaults.
struct InputOptions: ParsableArguments {
    @Option(name: .customLong("device"),
            help: ArgumentHelp("ALSA capture device: default, hw:1,0, plughw:..., a name from ~/.asoundrc (see `voicejournal devices`; default: the config file's, else default).", valueName: "pcm"),
            completion: .custom(LiveCompletions.captureDevices)) var deviceFlag: String?
    @Option(name: .customLong("rate"), help: ArgumentHelp("Sample rate in Hz (default: the config file's, else 16000).", valueName: "hz"))
    var rateFlag: Int?
    @Option(help: ArgumentHelp("Number of channels.", valueName: "n"))
    var channels = 1

    func validate() throws {
        if let rateFlag, !Settings.rates.contains(rateFlag) { throw ValidationError("--rate must be between 1000 and 768000 Hz") }
        guard (1...32).contains(channels) else { throw ValidationError("--channels must be between 1 and 32") }
    }

    /// The capture device to open.
    var device: String { deviceFlag ?? Settings.defaultDevice }

    /// The sample rate to ask for.
    var rate: Int { rateFlag ?? Settings.defaultRate }

    /// The sample format to ask the device for.
    var format: CaptureFormat { CaptureFormat(sampleRate: rate, channels: channels) }

    /// Resolves the command's settings with this device and rate among `flags` (flag, then
    /// environment, config file, default), and takes the device and rate they settle on.
    mutating func resolve(_ flags: Settings.Flags, with global: GlobalOptions) throws -> Settings {
        var flags = flags
        flags.device = deviceFlag
        flags.rate = rateFlag
        let settings = try global.settings(flags)
        deviceFlag = settings.device.value
        rateFlag = settings.rate.value
        return settings
    }
}
