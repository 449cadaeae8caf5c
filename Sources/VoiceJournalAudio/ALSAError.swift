import VoiceJournalCALSA
import Foundation

/// An ALSA call that failed: what was being done (the kind callers decide by), which
/// function, ALSA's own text for the code, and what to try.
public struct ALSAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What was being done when ALSA failed. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case listDevices, loadConfiguration, open, negotiate, prepare, read, write, drain
        }
        private let code: Code

        /// Listing the capture or playback devices (`snd_device_name_hint`).
        public static let listDevices = Kind(code: .listDevices)
        /// Parsing ALSA configuration text (`snd_config_*`).
        public static let loadConfiguration = Kind(code: .loadConfiguration)
        /// Opening the PCM by name (`snd_pcm_open`): a wrong name fails here.
        public static let open = Kind(code: .open)
        /// Agreeing on format, rate, channels and buffer sizes (`snd_pcm_hw_params*`).
        public static let negotiate = Kind(code: .negotiate)
        /// Preparing the stream, at the start or after an overrun or a suspend (`snd_pcm_prepare`).
        public static let prepare = Kind(code: .prepare)
        /// Reading captured frames mid-take (`snd_pcm_readi`): the device stopped delivering.
        public static let read = Kind(code: .read)
        /// Writing frames to play mid-stream (`snd_pcm_writei`): the device stopped taking audio.
        public static let write = Kind(code: .write)
        /// Waiting for the last frames to be played (`snd_pcm_drain`).
        public static let drain = Kind(code: .drain)

        public var description: String { code.rawValue }
    }

    /// Which way the audio was going: from a microphone, or to a speaker.
    public enum Direction: Sendable, Equatable {
        case capture, playback
    }

    public let kind: Kind
    /// Capture (`record`) or playback.
    public let direction: Direction
    /// The ALSA function that failed, e.g. `snd_pcm_open`.
    public let function: String
    /// The negative errno ALSA returned.
    public let code: Int32
    /// The PCM name the user asked for.
    public let device: String

    public init(_ kind: Kind, function: String, code: Int32, device: String, direction: Direction = .capture) {
        self.kind = kind
        self.direction = direction
        self.function = function
        self.code = code
        self.device = device
    }

    /// ALSA's text for the code (`snd_strerror`).
    public var reason: String { String(cString: snd_strerror(code)) }

    /// True when the device name does not exist (as opposed to a device that misbehaves).
    public var isUnknownDevice: Bool {
        kind == .open && [ENOENT, ENODEV, ENXIO].contains(-code)
    }

    public var description: String {
        let doing = direction == .capture ? "record from" : "play to"
        return "cannot \(doing) '\(device)': \(function) failed: \(reason) — \(advice)"
    }

    /// What the user can do about it, by kind and error.
    var advice: String {
        if direction == .playback { return playbackAdvice }
        if isUnknownDevice {
            return "run `voicejournal devices` to see the capture devices and pass one with --device"
        }
        switch -code {
        case EBUSY:
            return "another program is using the device; close it, or record from `default`"
        case EACCES, EPERM:
            return "you may not have access to the sound devices (is your user in the `audio` group?)"
        case EINVAL where kind == .negotiate:
            return "the device cannot capture that format; try --device plughw:CARD,DEV or default, or another --rate/--channels"
        default:
            if kind == .read {
                return "the device stopped delivering audio (unplugged or reset?); run `voicejournal devices` to check it"
            }
            return "run `voicejournal devices` to check the device, or try --device default"
        }
    }

    /// Playback's advice: the same causes, pointing at the playback devices
    /// (`voicejournal devices --playback`, the list `aplay -L` prints).
    private var playbackAdvice: String {
        if isUnknownDevice {
            return "run `voicejournal devices --playback` (the list `aplay -L` prints) to see the playback devices and pass one with --device"
        }
        switch -code {
        case EBUSY:
            return "another program is using the device; close it, or play to `default`"
        case EACCES, EPERM:
            return "you may not have access to the sound devices (is your user in the `audio` group?)"
        case EINVAL where kind == .negotiate:
            return "the device cannot play that format; try --device plughw:CARD,DEV or default"
        default:
            if kind == .write || kind == .drain {
                return "the device stopped taking audio (unplugged or reset?); run `voicejournal devices --playback` to check it"
            }
            return "run `voicejournal devices --playback` to check the device, or try --device default"
        }
    }
}
