import VoiceJournalCALSA
import Foundation

/// A PCM ALSA knows by name, as `arecord -L` (capture) or `aplay -L` (playback) lists it.
package struct PCMDeviceInfo: Sendable, Equatable, Codable {
    /// What to pass to `--device`, e.g. `default`, `hw:CARD=PCH,DEV=0`, `plughw:…`.
    package var name: String
    /// ALSA's description (may span lines: card name, then what the PCM does); nil if none.
    package var description: String?

    package init(name: String, description: String?) {
        self.name = name
        self.description = description
    }

    /// As `devices --json` lists it: a device without a description has `"description": null`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(description, forKey: .description)
    }

    private enum CodingKeys: String, CodingKey { case name, description }
}

/// A PCM that can capture, as `arecord -L` lists it.
package typealias CaptureDeviceInfo = PCMDeviceInfo
/// A PCM that can play, as `aplay -L` lists it.
package typealias PlaybackDeviceInfo = PCMDeviceInfo

extension CaptureDevice {
    /// The PCMs that can capture, from ALSA's name hints (cards and configuration files),
    /// in ALSA's order — the list `arecord -L` prints.
    package static func available() throws -> [CaptureDeviceInfo] {
        try PCMDeviceList.hinted(.capture)
    }
}

extension PlaybackDevice {
    /// The PCMs that can play, from ALSA's name hints (cards and configuration files),
    /// in ALSA's order — the list `aplay -L` prints.
    package static func available() throws -> [PlaybackDeviceInfo] {
        try PCMDeviceList.hinted(.playback)
    }
}

/// ALSA's PCM name hints, read once for both directions.
enum PCMDeviceList {
    static func hinted(_ direction: ALSAError.Direction) throws -> [PCMDeviceInfo] {
        calsa_silence_error_output()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let status = snd_device_name_hint(-1, "pcm", &hints)
        guard status >= 0, let hints else {
            throw ALSAError(.listDevices, function: "snd_device_name_hint", code: status, device: "", direction: direction)
        }
        defer { snd_device_name_free_hint(hints) }

        // IOID is absent for PCMs that do both directions; a PCM of the other one is left out,
        // as arecord -L / aplay -L do.
        let wanted = direction == .capture ? "Input" : "Output"
        var devices: [PCMDeviceInfo] = []
        var cursor = hints
        while let hint = cursor.pointee {
            defer { cursor += 1 }
            if let io = hintValue(hint, "IOID"), io != wanted { continue }
            guard let name = hintValue(hint, "NAME") else { continue }
            devices.append(PCMDeviceInfo(name: name, description: hintValue(hint, "DESC")))
        }
        return devices
    }

    private static func hintValue(_ hint: UnsafeMutableRawPointer, _ key: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, key) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
