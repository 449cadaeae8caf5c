import VoiceJournalCALSA
import Foundation

/// The shape of captured audio: always signed 16-bit little-endian, interleaved.
public struct CaptureFormat: Sendable, Equatable {
    public var sampleRate: Int
    public var channels: Int
    /// Frames per read (about 100 ms, like arecord's 125 ms: fewer system calls per second);
    /// the meter measures each read in 50 ms slices.
    public var periodFrames: Int
    /// Frames the device buffers; one read never asks for more than this (see FACTS.md).
    public var bufferFrames: Int

    /// A format with 100 ms periods and a buffer of eight periods (800 ms of slack for the reader).
    public init(sampleRate: Int = 16000, channels: Int = 1, periodFrames: Int? = nil, bufferFrames: Int? = nil) {
        self.sampleRate = sampleRate
        self.channels = channels
        let period = periodFrames ?? max(sampleRate / 10, 32)
        self.periodFrames = period
        self.bufferFrames = max(bufferFrames ?? period * 8, period)
    }

    /// Bytes in one interleaved frame.
    public var bytesPerFrame: Int { 2 * channels }

    /// Frames in `seconds` of audio, rounded to the nearest frame.
    public func frames(seconds: Double) -> Int64 { frameCount(seconds: seconds, rate: Double(sampleRate)) }

    /// Frames in one meter block: 50 ms.
    public var meterFrames: Int { max(sampleRate / 20, 1) }

    /// Seconds in `frames` of audio.
    public func seconds(frames: Int64) -> Double { sampleRate > 0 ? Double(frames) / Double(sampleRate) : 0 }
}

/// An ALSA configuration held in memory (an `snd_config_t`), so a caller can define PCMs
/// without files or environment variables — the tests' virtual microphones use it.
public final class ALSAConfiguration: @unchecked Sendable {
    // @unchecked: the tree is built once in init and only read (by snd_pcm_open_lconf) afterwards.
    let tree: OpaquePointer

    /// Parses ALSA configuration text, e.g. `pcm.mic { type file ... }`.
    public init(text: String) throws {
        var top: OpaquePointer?
        var status = snd_config_top(&top)
        guard status >= 0, let top else { throw ALSAError(.loadConfiguration, function: "snd_config_top", code: status, device: "") }
        var input: OpaquePointer?
        status = text.withCString { snd_input_buffer_open(&input, $0, strlen($0)) }
        guard status >= 0, let input else {
            snd_config_delete(top)
            throw ALSAError(.loadConfiguration, function: "snd_input_buffer_open", code: status, device: "")
        }
        status = snd_config_load(top, input)
        snd_input_close(input)
        guard status >= 0 else {
            snd_config_delete(top)
            throw ALSAError(.loadConfiguration, function: "snd_config_load", code: status, device: "")
        }
        tree = top
    }

    deinit { snd_config_delete(tree) }
}

/// One open ALSA capture PCM (`snd_pcm_t`), configured for S16_LE interleaved frames.
/// Reads block; run them on a dedicated thread, never on the cooperative pool.
public final class CaptureDevice: @unchecked Sendable {
    // @unchecked: opened on one thread, then used by exactly one thread at a time (the capture
    // thread reads; nothing else touches the handle until that thread has finished).
    private let pcm: OpaquePointer
    private let configuration: ALSAConfiguration?
    /// The PCM name it was opened with.
    public let name: String
    /// The format the device agreed to (rate, period and buffer may differ from what was asked).
    public let format: CaptureFormat
    /// Overruns (EPIPE) recovered so far: audio the device dropped because nobody read in time.
    public private(set) var overruns = 0

    /// Opens `name` (`default`, `hw:1,0`, `plughw:…`, a name from `~/.asoundrc`) for capture,
    /// or a PCM defined in `configuration` when given.
    public init(name: String, format requested: CaptureFormat, configuration: ALSAConfiguration? = nil) throws {
        calsa_silence_error_output()  // errors come back as ALSAError, not as ALSA's own stderr lines
        var handle: OpaquePointer?
        let status: Int32
        if let configuration {
            status = snd_pcm_open_lconf(&handle, name, SND_PCM_STREAM_CAPTURE, 0, configuration.tree)
        } else {
            status = snd_pcm_open(&handle, name, SND_PCM_STREAM_CAPTURE, 0)
        }
        guard status >= 0, let handle else { throw ALSAError(.open, function: "snd_pcm_open", code: status, device: name) }
        do {
            format = try Self.configure(handle, name: name, requested: requested)
        } catch {
            snd_pcm_close(handle)
            throw error
        }
        pcm = handle
        self.name = name
        self.configuration = configuration
    }

    deinit { snd_pcm_close(pcm) }

    /// Reads exactly `frames` frames into `buffer` (interleaved), recovering from overruns.
    /// Returns fewer only if the device stops delivering.
    public func read(into buffer: UnsafeMutablePointer<Int16>, frames: Int) throws -> Int {
        precondition(frames <= format.bufferFrames, "one read must not ask for more than the buffer holds")
        var done = 0
        while done < frames {
            let result = snd_pcm_readi(pcm, buffer + done * format.channels, snd_pcm_uframes_t(frames - done))
            if result > 0 {
                done += Int(result)
                continue
            }
            if result == 0 { break }
            let code = Int32(result)
            switch -code {
            case EINTR:
                continue
            case EPIPE:
                // The device overwrote audio we had not read yet; count it and carry on.
                overruns += 1
                let prepared = snd_pcm_prepare(pcm)
                if prepared < 0 { throw ALSAError(.prepare, function: "snd_pcm_prepare", code: prepared, device: name) }
            case ESTRPIPE:
                // Suspended (laptop sleep): resume, or restart the stream if the driver cannot.
                var resumed = snd_pcm_resume(pcm)
                while resumed == -EAGAIN {
                    usleep(10_000)
                    resumed = snd_pcm_resume(pcm)
                }
                if resumed < 0 {
                    let prepared = snd_pcm_prepare(pcm)
                    if prepared < 0 { throw ALSAError(.prepare, function: "snd_pcm_prepare", code: prepared, device: name) }
                }
            default:
                throw ALSAError(.read, function: "snd_pcm_readi", code: code, device: name)
            }
        }
        return done
    }

    /// Negotiates the rate, exactly the channels asked, period and buffer sizes (see
    /// `PCMNegotiation`); a read never asks for more than the buffer holds.
    private static func configure(_ pcm: OpaquePointer, name: String, requested: CaptureFormat) throws -> CaptureFormat {
        let agreed = try PCMNegotiation.configure(pcm, device: name, direction: .capture,
                                                  sampleRate: requested.sampleRate, channels: requested.channels,
                                                  nearestChannels: false, periodFrames: requested.periodFrames,
                                                  bufferFrames: requested.bufferFrames)
        return CaptureFormat(sampleRate: agreed.sampleRate, channels: requested.channels,
                             periodFrames: agreed.periodFrames, bufferFrames: agreed.bufferFrames)
    }
}
