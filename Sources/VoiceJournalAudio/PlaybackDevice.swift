import VoiceJournalCALSA
import Foundation

/// The shape of audio handed to a speaker: signed 16-bit little-endian, interleaved.
public struct PlaybackFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Frames per write (50 ms unless the device chose otherwise).
    public var periodFrames: Int
    /// Frames the device buffers ahead of what is heard (about 400 ms).
    public var bufferFrames: Int

    /// A format with 50 ms periods and a buffer of eight periods.
    public init(sampleRate: Int = 16000, channels: Int = 1, periodFrames: Int? = nil, bufferFrames: Int? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        let period = periodFrames ?? max(sampleRate / 20, 32)
        self.periodFrames = period
        self.bufferFrames = max(bufferFrames ?? period * 8, period)
    }

    /// Seconds in `frames` of audio.
    public func seconds(frames: Int64) -> Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// One open ALSA playback PCM (`snd_pcm_t`), configured for S16_LE interleaved frames.
/// Writes block until the device has room; run them on a dedicated thread, never on the
/// cooperative pool.
public final class PlaybackDevice: @unchecked Sendable {
    // @unchecked: opened on one thread, then used by exactly one thread at a time (the playback
    // thread writes; nothing else touches the handle until that thread has finished).
    private let pcm: OpaquePointer
    private let configuration: ALSAConfiguration?
    private let canPause: Bool
    private var pausedInDevice = false
    /// The PCM name it was opened with.
    public let name: String
    /// What the device agreed to: the rate and channels it actually took, which may differ
    /// from what was asked (the caller converts, or plays through `plughw:`/`default`).
    public let format: PlaybackFormat
    /// Underruns (EPIPE) recovered so far: moments the device ran dry because nobody wrote in time.
    public private(set) var underruns = 0

    /// Opens `name` (`default`, `hw:1,0`, `plughw:…`, a name from `~/.asoundrc`) for playback
    /// at the rate and channels asked for, or the nearest the device takes; or a PCM defined in
    /// `configuration` when given.
    public init(name: String = "default", format requested: PlaybackFormat,
                configuration: ALSAConfiguration? = nil) throws {
        calsa_silence_error_output()  // errors come back as ALSAError, not as ALSA's own stderr lines
        var handle: OpaquePointer?
        let status: Int32
        if let configuration {
            status = snd_pcm_open_lconf(&handle, name, SND_PCM_STREAM_PLAYBACK, 0, configuration.tree)
        } else {
            status = snd_pcm_open(&handle, name, SND_PCM_STREAM_PLAYBACK, 0)
        }
        guard status >= 0, let handle else {
            throw ALSAError(.open, function: "snd_pcm_open", code: status, device: name, direction: .playback)
        }
        do {
            (format, canPause) = try Self.configure(handle, name: name, requested: requested)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        self.name = name
        self.configuration = configuration
    }

    deinit { snd_pcm_close(pcm) }

    /// Writes all `frames` frames of `samples` (interleaved, in `format`), waiting for room and
    /// recovering from underruns, which are counted.
    public func write(_ samples: UnsafePointer<Int16>, frames: Int) throws {
        var done = 0
        while done < frames {
            let result = snd_pcm_writei(pcm, samples + done * format.channels, snd_pcm_uframes_t(frames - done))
            if result >= 0 {
                done += Int(result)
                continue
            }
            let code = Int32(result)
            if -code == EPIPE { underruns += 1 }
            // snd_pcm_recover handles EINTR, EPIPE (underrun: prepare again) and ESTRPIPE
            // (suspended: resume); anything else it hands back unchanged.
            let recovered = snd_pcm_recover(pcm, code, 1)
            if recovered < 0 { throw playbackError(.write, "snd_pcm_writei", recovered) }
        }
    }

    /// Stops taking audio without losing what is buffered: paused in the device when it can
    /// pause, otherwise left to run dry (resume then starts it again without counting an underrun).
    public func pause() throws {
        guard canPause, !pausedInDevice, snd_pcm_state(pcm) == SND_PCM_STATE_RUNNING else { return }
        let status = snd_pcm_pause(pcm, 1)
        if status < 0 { throw playbackError(.prepare, "snd_pcm_pause", status) }
        pausedInDevice = true
    }

    /// Undoes `pause()`, so the next write plays on from where it stopped.
    public func resume() throws {
        if pausedInDevice {
            pausedInDevice = false
            let status = snd_pcm_pause(pcm, 0)
            if status < 0 { throw playbackError(.prepare, "snd_pcm_pause", status) }
        }
        if snd_pcm_state(pcm) == SND_PCM_STATE_XRUN {
            let status = snd_pcm_prepare(pcm)
            if status < 0 { throw playbackError(.prepare, "snd_pcm_prepare", status) }
        }
    }

    /// Waits until everything written has been played.
    public func drain() throws {
        try resume()
        let status = snd_pcm_drain(pcm)
        if status < 0 { throw playbackError(.drain, "snd_pcm_drain", status) }
    }

    /// Throws away what is buffered and not yet heard (a stop or a jump), leaving the device
    /// ready for the next write.
    public func discard() {
        pausedInDevice = false
        snd_pcm_drop(pcm)
        snd_pcm_prepare(pcm)
    }

    /// Frames written but not yet heard (what the device still holds); 0 when ALSA cannot say.
    public func delay() -> Int {
        var frames = snd_pcm_sframes_t(0)
        guard snd_pcm_delay(pcm, &frames) >= 0 else { return 0 }
        return max(Int(frames), 0)
    }

    private func playbackError(_ kind: ALSAError.Kind, _ function: String, _ code: Int32) -> ALSAError {
        ALSAError(kind, function: function, code: code, device: name, direction: .playback)
    }

    /// Negotiates the nearest rate and channels the device takes (see `PCMNegotiation`).
    private static func configure(_ pcm: OpaquePointer, name: String,
                                  requested: PlaybackFormat) throws -> (PlaybackFormat, canPause: Bool) {
        // ALSA's own rate conversion is turned off: a device that cannot take the rate says so,
        // and the session converts with libsamplerate (band-limited), not ALSA's linear one.
        let agreed = try PCMNegotiation.configure(pcm, device: name, direction: .playback,
                                                  sampleRate: requested.sampleRate, channels: requested.channels,
                                                  nearestChannels: true, alsaResamples: false, periodFrames: requested.periodFrames,
                                                  bufferFrames: requested.bufferFrames)
        let format = PlaybackFormat(sampleRate: agreed.sampleRate, channels: agreed.channels,
                                    periodFrames: agreed.periodFrames, bufferFrames: agreed.bufferFrames)
        return (format, agreed.canPause)
    }
}
