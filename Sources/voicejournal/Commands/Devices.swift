import ArgumentParser
import Audio
import Foundation
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
        if json {
            try printJSON(devices.map { DeviceJSON(name: $0.name, description: $0.description) })
            return
        }
        if devices.isEmpty {
            FileHandle.standardError.write(Data("voicejournal: ALSA lists no capture devices (no sound card, and no PCM in ~/.asoundrc)\n".utf8))
            return
        }
        // Names and descriptions come from ALSA's configuration files: escaped.
        for device in devices {
            print(TerminalText.escaped(device.name))
            for line in (device.description ?? "").split(separator: "\n", omittingEmptySubsequences: true) {
                print("    \(TerminalText.escaped(String(line)))")
            }
        }
    }
}

/// One device in `devices --json`; a device without a description has `"description": null`.
private struct DeviceJSON: Encodable {
    let name: String
    let description: String?

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
    }

    enum CodingKeys: String, CodingKey { case name, description }
}
