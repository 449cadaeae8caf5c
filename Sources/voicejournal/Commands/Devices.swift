import ArgumentParser
import Audio
import Foundation

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
            let objects: [[String: Any]] = devices.map { ["name": $0.name, "description": $0.description ?? NSNull()] }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
            return
        }
        if devices.isEmpty {
            FileHandle.standardError.write(Data("voicejournal: ALSA lists no capture devices (no sound card, and no PCM in ~/.asoundrc)\n".utf8))
            return
        }
        for device in devices {
            print(device.name)
            for line in (device.description ?? "").split(separator: "\n", omittingEmptySubsequences: true) {
                print("    \(line)")
            }
        }
    }
}
