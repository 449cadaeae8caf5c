import CALSA
import Foundation

/// An ALSA call that failed: which function, ALSA's own text for the code, and what to try.
public struct ALSAError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The ALSA function that failed, e.g. `snd_pcm_open`.
    public let function: String
    /// The negative errno ALSA returned.
    public let code: Int32
    /// The PCM name the user asked for.
    public let device: String

    public init(function: String, code: Int32, device: String) {
        self.function = function
        self.code = code
        self.device = device
    }

    /// ALSA's text for the code (`snd_strerror`).
    public var reason: String { String(cString: snd_strerror(code)) }

    /// True when the device name does not exist (as opposed to a device that misbehaves).
    public var isUnknownDevice: Bool {
        function == "snd_pcm_open" && [ENOENT, ENODEV, ENXIO].contains(-code)
    }

    public var description: String {
        "cannot record from '\(device)': \(function) failed: \(reason) — \(advice)"
    }

    /// What the user can do about it, by function and error.
    var advice: String {
        if isUnknownDevice {
            return "run `voicejournal devices` to see the capture devices and pass one with --device"
        }
        switch -code {
        case EBUSY:
            return "another program is using the device; close it, or record from `default`"
        case EACCES, EPERM:
            return "you may not have access to the sound devices (is your user in the `audio` group?)"
        case EINVAL where function.hasPrefix("snd_pcm_hw_params"):
            return "the device cannot capture that format; try --device plughw:CARD,DEV or default, or another --rate/--channels"
        default:
            if function == "snd_pcm_readi" {
                return "the device stopped delivering audio (unplugged or reset?); run `voicejournal devices` to check it"
            }
            return "run `voicejournal devices` to check the device, or try --device default"
        }
    }
}
