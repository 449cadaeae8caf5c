import ArgumentParser
import VoiceJournal
import VoiceJournalTerminal

/// `devices` — the capture PCMs ALSA knows, like `arecord -L`; with `--playback` the playback
/// PCMs, like `aplay -L`.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture devices (names for --device), like `arecord -L`; --playback: playback devices, like `aplay -L`")

    @OptionGroup var global: GlobalOptions
    @Flag(help: "List the devices that can play (for play --device) instead of those that can capture.")
    var playback = false
    @Flag(help: "Print the list as JSON.")
    var json = false

    func run() async throws {
        let kind = playback ? "playback" : "capture"
        let devices: [PCMDeviceInfo]
        do {
            devices = try playback ? PlaybackDevice.available() : CaptureDevice.available()
        } catch let error as ALSAError {
            throw CLIError.configuration("cannot list \(kind) devices: \(error.function) failed: \(error.reason)")
        }
        if json { return try printJSON(devices) }
        guard !devices.isEmpty else {
            return printNotice("ALSA lists no \(kind) devices (no sound card, and no PCM in ~/.asoundrc)")
        }
        for line in DeviceListing.lines(devices.map { ($0.name, $0.description) }) { print(line) }
    }
}
