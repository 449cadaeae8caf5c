import ArgumentParser
import Audio

/// Which microphone and how to capture from it: shared by `record`, `answer` and `meter`.
struct InputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("ALSA capture device: default, hw:1,0, plughw:…, a name from ~/.asoundrc (see `voicejournal devices`).", valueName: "pcm"))
    var device = "default"

    @Option(help: ArgumentHelp("Sample rate in Hz.", valueName: "hz"))
    var rate = 16000

    @Option(help: ArgumentHelp("Number of channels.", valueName: "n"))
    var channels = 1

    func validate() throws {
        guard (1000...768_000).contains(rate) else { throw ValidationError("--rate must be between 1000 and 768000 Hz") }
        guard (1...32).contains(channels) else { throw ValidationError("--channels must be between 1 and 32") }
    }

    /// The sample format to ask the device for.
    var format: CaptureFormat { CaptureFormat(sampleRate: rate, channels: channels) }
}
