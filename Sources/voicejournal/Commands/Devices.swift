import ArgumentParser
import Audio
import Terminal

/// `devices` — the capture PCMs ALSA knows, like `arecord -L`.
struct Devices: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List capture devices (names for --device), like `arecord -L`")

    @OptionGroup var global: GlobalOptions

    @Flag(help: "Print the list as JSON.")
    var json = false

    func run() async throws {
        let devices: [CaptureDeviceInfo]
        do {
            devices = try CaptureDevice.available()
        } catch let error as ALSAError {
            throw CLIError.configuration("cannot list capture devices: \(error.function) failed: \(error.reason)")
        }
        if json { return try printJSON(devices) }
        guard !devices.isEmpty else {
            return printNotice("ALSA lists no capture devices (no sound card, and no PCM in ~/.asoundrc)")
        }
        for line in DeviceListing.lines(devices.map { ($0.name, $0.description) }) { print(line) }
    }
}
