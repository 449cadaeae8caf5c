import Foundation

/// A speaker made of ALSA's `file` PCM plugin, the playback twin of `VirtualMicrophone`: what
/// is played lands in a raw file (S16_LE interleaved, no header), unpaced and sample-exact,
/// through the same ALSA calls a sound card would take.
public struct VirtualSpeaker: Sendable {
    /// The PCM name to open.
    public let name: String
    /// The raw file the plugin writes what it is given to.
    public let outfile: URL
    /// A configuration file defining only this PCM.
    public let configFile: URL

    /// The PCM's definition, for `ALSAConfiguration(text:)` (in-process `snd_pcm_open_lconf`).
    /// The slave is defined inline: a local configuration cannot see ALSA's global `null`.
    public var configText: String {
        """
        pcm.\(name) {
            type file
            slave { pcm { type null } }
            file "\(outfile.path)"
            format "raw"
            hint { show on description "voicejournal test speaker" }
        }
        """
    }

    /// Environment that lets any ALSA program (voicejournal, aplay) open the PCM by name.
    public var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configFile.path)"]
    }

    /// A speaker writing to `name.raw` in `folder`.
    /// Its `null` slave takes any rate and channel count, so the device takes what is asked.
    public init(in folder: URL, name: String = "testspk") throws {
        self.name = name
        outfile = folder.appendingPathComponent("\(name).raw")
        configFile = folder.appendingPathComponent("\(name).asoundrc")
        try configText.write(to: configFile, atomically: true, encoding: .utf8)
    }

    /// The samples written so far (none if nothing was played yet).
    public func written() -> [Int16] {
        guard let data = try? Data(contentsOf: outfile) else { return [] }
        return data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
    }

    /// Bytes written so far.
    public func bytesWritten() -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: outfile.path)[.size]) as? Int) ?? 0
    }
}
