import VoiceJournalCALSA

/// What ALSA agreed to for a PCM opened for signed 16-bit little-endian interleaved frames.
struct NegotiatedPCM {
    var sampleRate: Int
    var channels: Int
    /// Frames per read or write: never more than the buffer holds (the file plugin reads
    /// nothing when asked for more).
    var periodFrames: Int
    var bufferFrames: Int
    /// Whether the device can pause (`snd_pcm_pause`).
    var canPause: Bool
}

/// The hardware parameters capture and playback both set: one negotiation, so the two
/// directions cannot drift apart.
enum PCMNegotiation {
    /// Negotiates S16_LE, interleaved access, the nearest rate (only rates the device takes
    /// natively when `alsaResamples` is false: ALSA's plug layer then converts no rate), the channels (exactly as asked,
    /// or the nearest the device has with `nearestChannels`), period and buffer sizes near the
    /// ones asked, and prepares the PCM. Errors name `device` and `direction`.
    static func configure(_ pcm: OpaquePointer, device: String, direction: ALSAError.Direction,
                          sampleRate: Int, channels: Int, nearestChannels: Bool, alsaResamples: Bool = true,
                          periodFrames: Int, bufferFrames: Int) throws -> NegotiatedPCM {
        var params: OpaquePointer?
        let allocated = snd_pcm_hw_params_malloc(&params)
        guard allocated >= 0, let params else {
            throw ALSAError(.negotiate, function: "snd_pcm_hw_params_malloc", code: allocated, device: device, direction: direction)
        }
        defer { snd_pcm_hw_params_free(params) }

        func check(_ function: String, _ status: Int32, _ kind: ALSAError.Kind = .negotiate) throws {
            if status < 0 { throw ALSAError(kind, function: function, code: status, device: device, direction: direction) }
        }
        try check("snd_pcm_hw_params_any", snd_pcm_hw_params_any(pcm, params))
        try check("snd_pcm_hw_params_set_access", snd_pcm_hw_params_set_access(pcm, params, SND_PCM_ACCESS_RW_INTERLEAVED))
        try check("snd_pcm_hw_params_set_format", snd_pcm_hw_params_set_format(pcm, params, SND_PCM_FORMAT_S16_LE))
        var agreedChannels = UInt32(channels)
        if nearestChannels {
            try check("snd_pcm_hw_params_set_channels_near", snd_pcm_hw_params_set_channels_near(pcm, params, &agreedChannels))
        } else {
            try check("snd_pcm_hw_params_set_channels", snd_pcm_hw_params_set_channels(pcm, params, agreedChannels))
        }
        if !alsaResamples {
            try check("snd_pcm_hw_params_set_rate_resample", snd_pcm_hw_params_set_rate_resample(pcm, params, 0))
        }
        var rate = UInt32(sampleRate)
        var dir: Int32 = 0
        try check("snd_pcm_hw_params_set_rate_near", snd_pcm_hw_params_set_rate_near(pcm, params, &rate, &dir))
        var period = snd_pcm_uframes_t(periodFrames)
        try check("snd_pcm_hw_params_set_period_size_near", snd_pcm_hw_params_set_period_size_near(pcm, params, &period, &dir))
        var buffer = snd_pcm_uframes_t(bufferFrames)
        try check("snd_pcm_hw_params_set_buffer_size_near", snd_pcm_hw_params_set_buffer_size_near(pcm, params, &buffer))
        try check("snd_pcm_hw_params", snd_pcm_hw_params(pcm, params))
        try check("snd_pcm_hw_params_get_period_size", snd_pcm_hw_params_get_period_size(params, &period, &dir))
        try check("snd_pcm_hw_params_get_buffer_size", snd_pcm_hw_params_get_buffer_size(params, &buffer))
        let canPause = snd_pcm_hw_params_can_pause(params) != 0
        try check("snd_pcm_prepare", snd_pcm_prepare(pcm), .prepare)
        return NegotiatedPCM(sampleRate: Int(rate), channels: Int(agreedChannels),
                             periodFrames: min(Int(period), Int(buffer)), bufferFrames: Int(buffer), canPause: canPause)
    }
}
