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

    /// The only rate the speaker takes, when it was made with one (a sound card fixed at 16 kHz).
    public let fixedRate: Int?

    /// The PCM's definition, for `ALSAConfiguration(text:)` (in-process `snd_pcm_open_lconf`).
    /// The slave is defined inline: a local configuration cannot see ALSA's global `null`.
    /// With `fixedRate` the file plugin sits under a `plug` whose slave rate is fixed: a player
    /// that turns ALSA's rate conversion off (`snd_pcm_hw_params_set_rate_resample`) is offered
    /// that rate alone, as on a card that has only it.
    public var configText: String {
        let file = """
            type file
                slave { pcm { type null } }
                file "\(outfile.path)"
                format "raw"
            """
        guard let fixedRate else {
            return """
            pcm.\(name) {
                \(file)
                hint { show on description "voicejournal test speaker" }
            }
            """
        }
        return """
        pcm.\(name) {
            type plug
            slave { pcm { \(file) } rate \(fixedRate) }
            hint { show on description "voicejournal test speaker (\(fixedRate) Hz only)" }
        }
        """
    }

    /// Environment that lets any ALSA program (voicejournal, aplay) open the PCM by name.
    public var environment: [String: String] {
        ["ALSA_CONFIG_PATH": "/usr/share/alsa/alsa.conf:\(configFile.path)"]
    }

    /// A speaker writing to `name.raw` in `folder`.
    /// Its `null` slave takes any rate and channel count, so the device takes what is asked
    /// (or only `fixedRate`, when given).
    public init(in folder: URL, name: String = "testspk", fixedRate: Int? = nil) throws {
        self.name = name
        self.fixedRate = fixedRate
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
