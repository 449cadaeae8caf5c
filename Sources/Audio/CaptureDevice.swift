import CALSA
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
    public func frames(seconds: Double) -> Int64 { Int64((seconds * Double(sampleRate)).rounded()) }

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

    /// Negotiates S16_LE, interleaved access, the rate, channels, period and buffer sizes.
    private static func configure(_ pcm: OpaquePointer, name: String, requested: CaptureFormat) throws -> CaptureFormat {
        var params: OpaquePointer?
        let allocated = snd_pcm_hw_params_malloc(&params)
        guard allocated >= 0, let params else {
            throw ALSAError(.negotiate, function: "snd_pcm_hw_params_malloc", code: allocated, device: name)
        }
        defer { snd_pcm_hw_params_free(params) }

        func check(_ function: String, _ status: Int32, _ kind: ALSAError.Kind = .negotiate) throws {
            if status < 0 { throw ALSAError(kind, function: function, code: status, device: name) }
        }
        try check("snd_pcm_hw_params_any", snd_pcm_hw_params_any(pcm, params))
        try check("snd_pcm_hw_params_set_access", snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        try check("snd_pcm_hw_params_set_format", snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE))
        try check("snd_pcm_hw_params_set_channels", snd_pcm_hw_params_set_channels(pcm, params, UInt32(requested.channels)))
        var rate = UInt32(requested.sampleRate)
        var direction: Int32 = 0
        try check("snd_pcm_hw_params_set_rate_near", snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &direction))
        var period = snd_pcm_uframes_t(requested.periodFrames)
        try check("snd_pcm_hw_params_set_period_size_near",
                  snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &direction))
        var buffer = snd_pcm_uframes_t(requested.bufferFrames)
        try check("snd_pcm_hw_params_set_buffer_size_near", snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer))
        try check("snd_pcm_hw_params", snd_pcm_hw_params(pcm, params))
        try check("snd_pcm_hw_params_get_period_size", snd_pcm_hw_params_get_period_size(params, &period, &direction))
        try check("snd_pcm_hw_params_get_buffer_size", snd_pcm_hw_params_get_buffer_size(params, &buffer))
        try check("snd_pcm_prepare", snd_pcm_prepare(pcm), .prepare)
        // A read never asks for more than the buffer holds (the file plugin would read nothing).
        let readFrames = min(Int(period), Int(buffer))
        return CaptureFormat(sampleRate: Int(rate), channels: requested.channels,
                             periodFrames: readFrames, bufferFrames: Int(buffer))
    }
}
