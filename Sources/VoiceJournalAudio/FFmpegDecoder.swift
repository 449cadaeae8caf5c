import VoiceJournalCFFmpeg
import Foundation

/// An audio file decoded by FFmpeg's libraries (M4A/AAC, MP4, WebM, … — what libsndfile cannot
/// read): the best audio stream of one `AVFormatContext`, its `AVCodecContext`, and the one
/// `AVPacket` and `AVFrame` reused for every block, all freed in deinit. Streams: at most one
/// decoded frame (a few thousand samples) is held at a time. Use from one thread.
final class FFmpegDecoder {
    private var container: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var frame: UnsafeMutablePointer<AVFrame>?
    /// The open's one-file rule and deadline; freed after the container that uses it.
    private var guardrail: OpaquePointer?
    // Every stored property has a value before the first step that can throw, so deinit
    // runs (and frees what was allocated) whichever step fails.
    private var streamIndex: Int32 = -1
    let url: URL
    /// Rate, channels and format as the container states them; `frames` is estimated from the
    /// stream's (or container's) duration.
    private(set) var info = AudioFileInfo(frames: 0, sampleRate: 0, channels: 0, format: "audio", framesAreEstimated: true)
    /// The decoder's name, e.g. "aac", "opus".
    private(set) var codecName = ""
    /// Packets the decoder refused as invalid and that were skipped (a damaged stretch).
    private(set) var skippedPackets = 0

    /// Decoded samples (interleaved Float) not yet handed out.
    private var pending: [Float] = []
    private var pendingOffset = 0
    private var draining = false
    private var finished = false

    /// Opens `url`'s best audio stream; throws `SoundFileError` when FFmpeg cannot.
    init(url: URL) throws {
        self.url = url
        let path = url.path
        guard cffmpeg_load() else {
            let why = cffmpeg_load_error().map { String(cString: $0) } ?? "unknown reason"
            throw SoundFileError(operation: "decode", path: path,
                                 reason: "FFmpeg's libraries (libavformat59, libavcodec59, libavutil57) could not be loaded: \(why)")
        }
        Self.silenceLogging
        func failure(_ step: String, _ code: Int32) -> SoundFileError {
            SoundFileError(operation: "decode", path: path, reason: "\(step): \(Self.text(of: code))")
        }

        // A file is audio by its own bytes: the demuxer is chosen by probing them, and only an
        // audio container's is used. FFmpeg would otherwise pick any of its demuxers, among
        // them playlists (HLS) and concat lists, which open the files and URLs they name.
        let demuxer = try ContainerProbe.demuxer(of: url)
        guard let guardrail = cffmpeg_guard_new() else { throw failure("cffmpeg_guard_new", cffmpeg_error_again()) }
        self.guardrail = guardrail
        var opened: UnsafeMutablePointer<AVFormatContext>?
        // "file:" so that nothing in the path is read as another protocol's name.
        var status = cffmpeg_open_guarded(&opened, "file:" + path, demuxer, ContainerProbe.demuxerNames, guardrail)
        guard status == 0, let container = opened else { throw failure("avformat_open_input", status) }
        self.container = container
        cffmpeg_guard_arm(guardrail, Self.stepSeconds)
        status = cffmpeg_avformat_find_stream_info(container, nil)
        guard status >= 0 else { throw failure("avformat_find_stream_info", status) }

        var decoder: UnsafePointer<AVCodec>?
        let index = cffmpeg_av_find_best_stream(container, AVMEDIA_TYPE_AUDIO, -1, -1, &decoder, 0)
        guard index >= 0, let decoder, let stream = container.pointee.streams[Int(index)] else {
            throw failure("av_find_best_stream", index >= 0 ? cffmpeg_error_invalid_data() : index)
        }
        // Only the audio stream is demuxed further: a video track's packets are dropped unread.
        for other in 0..<Int(container.pointee.nb_streams) where other != Int(index) {
            container.pointee.streams[other]?.pointee.discard = AVDISCARD_ALL
        }
        guard let context = cffmpeg_avcodec_alloc_context3(decoder) else { throw failure("avcodec_alloc_context3", cffmpeg_error_again()) }
        codec = context
        status = cffmpeg_avcodec_parameters_to_context(context, stream.pointee.codecpar)
        guard status >= 0 else { throw failure("avcodec_parameters_to_context", status) }
        context.pointee.pkt_timebase = stream.pointee.time_base
        status = cffmpeg_avcodec_open2(context, decoder, nil)
        guard status == 0 else { throw failure("avcodec_open2", status) }
        guard let packet = cffmpeg_av_packet_alloc(), let frame = cffmpeg_av_frame_alloc() else {
            throw failure("av_packet_alloc", cffmpeg_error_again())
        }
        self.packet = packet
        self.frame = frame

        let sampleRate = Int(context.pointee.sample_rate)
        let channels = Int(context.pointee.ch_layout.nb_channels)
        guard sampleRate > 0, channels > 0 else {
            throw SoundFileError(operation: "decode", path: path, reason: "the audio stream states no sample rate or channels")
        }
        streamIndex = index
        codecName = String(cString: decoder.pointee.name)
        info = AudioFileInfo(frames: Self.estimatedFrames(container: container, stream: stream, sampleRate: sampleRate),
                             sampleRate: sampleRate, channels: channels,
                             format: Self.formatName(container.pointee.iformat, fileExtension: url.pathExtension),
                             framesAreEstimated: true)
    }

    deinit {
        // Nothing was allocated when the libraries could not be loaded (and nothing to call).
        guard cffmpeg_load() else { return }
        cffmpeg_av_frame_free(&frame)
        cffmpeg_av_packet_free(&packet)
        cffmpeg_avcodec_free_context(&codec)
        cffmpeg_avformat_close_input(&container)
        cffmpeg_guard_free(guardrail)
    }

    /// The longest any one blocking step (opening, finding the streams, reading a packet) may
    /// take: a local file answers in milliseconds, so only something that should never have
    /// been opened (a live stream, a stalled mount) reaches it.
    static let stepSeconds = 10.0

    /// Fills `buffer` with up to `maxFrames` interleaved frames; 0 only at the end.
    func read(into buffer: UnsafeMutablePointer<Float>, maxFrames: Int) throws -> Int {
        let channels = info.channels
        var filled = 0
        while filled < maxFrames {
            if pendingOffset == pending.count {
                pending.removeAll(keepingCapacity: true)
                pendingOffset = 0
                guard try decodeFrame() else { break }
                continue
            }
            let frames = min(maxFrames - filled, (pending.count - pendingOffset) / channels)
            pending.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                (buffer + filled * channels).update(from: base + pendingOffset, count: frames * channels)
            }
            pendingOffset += frames * channels
            filled += frames
        }
        return filled
    }

    /// Decodes the next frame into `pending`; false at the end of the stream. The
    /// send-packet / receive-frame loop of FFmpeg's decoding API.
    private func decodeFrame() throws -> Bool {
        guard let container, let codec, let packet, let frame, !finished else { return false }
        while true {
            let received = cffmpeg_avcodec_receive_frame(codec, frame)
            if received == 0 {
                defer { cffmpeg_av_frame_unref(frame) }
                try append(frame)
                if pending.isEmpty { continue }
                return true
            }
            if received == cffmpeg_error_eof() {
                finished = true
                return false
            }
            guard received == cffmpeg_error_again(), !draining else { throw readFailure("avcodec_receive_frame", received) }

            if let guardrail { cffmpeg_guard_arm(guardrail, Self.stepSeconds) }
            let read = cffmpeg_av_read_frame(container, packet)
            if read == cffmpeg_error_eof() {
                // Flush: a null packet asks the decoder for the frames it still holds.
                draining = true
                let sent = cffmpeg_avcodec_send_packet(codec, nil)
                guard sent == 0 || sent == cffmpeg_error_eof() else { throw readFailure("avcodec_send_packet", sent) }
                continue
            }
            guard read == 0 else { throw readFailure("av_read_frame", read) }
            defer { cffmpeg_av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            let sent = cffmpeg_avcodec_send_packet(codec, packet)
            if sent == cffmpeg_error_invalid_data() {
                // One bad packet in an hour-long file costs a few milliseconds, not the file.
                skippedPackets += 1
                continue
            }
            guard sent == 0 else { throw readFailure("avcodec_send_packet", sent) }
        }
    }

    /// Appends `frame`'s samples to `pending`, interleaved, as Float at full scale ±1.0,
    /// whatever sample format (packed or planar, integer or float) the decoder produced.
    private func append(_ frame: UnsafeMutablePointer<AVFrame>) throws {
        let channels = info.channels
        guard Int(cffmpeg_frame_channels(frame)) == channels, Int(frame.pointee.sample_rate) == info.sampleRate else {
            throw SoundFileError(operation: "decode", path: url.path,
                                 reason: "the audio stream changes its sample rate or channels part-way through")
        }
        let count = Int(frame.pointee.nb_samples)
        guard count > 0, let planes = frame.pointee.extended_data else { return }
        let format = AVSampleFormat(rawValue: frame.pointee.format)
        let planar = cffmpeg_av_sample_fmt_is_planar(format) != 0
        // Converted into a fresh array, then appended in one copy: growing `pending` by a
        // repeated zero costs a generic call per sample in a debug build (tests run one), a
        // few seconds a minute of audio.
        let converted = try [Float](unsafeUninitializedCapacity: count * channels) { output, initialized in
            guard let out = output.baseAddress else { return }
            for channel in 0..<channels {
                guard let plane = planes[planar ? channel : 0] else {
                    for index in 0..<count { out[index * channels + channel] = 0 }
                    continue
                }
                let layout = SampleLayout(source: UnsafeRawPointer(plane), first: planar ? 0 : channel,
                                          step: planar ? 1 : channels, channel: channel, channels: channels, count: count)
                switch cffmpeg_av_get_packed_sample_fmt(format) {
                case AV_SAMPLE_FMT_FLT: layout.copy(Float.self, into: out) { $0 }
                case AV_SAMPLE_FMT_DBL: layout.copy(Double.self, into: out) { Float($0) }
                case AV_SAMPLE_FMT_S16: layout.copy(Int16.self, into: out) { Float($0) / 32768 }
                case AV_SAMPLE_FMT_S32: layout.copy(Int32.self, into: out) { Float(Double($0) / 2_147_483_648) }
                case AV_SAMPLE_FMT_S64: layout.copy(Int64.self, into: out) { Float(Double($0) / 9_223_372_036_854_775_808) }
                case AV_SAMPLE_FMT_U8: layout.copy(UInt8.self, into: out) { (Float($0) - 128) / 128 }
                default:
                    throw SoundFileError(operation: "decode", path: url.path,
                                         reason: "the decoder produced sample format \(format.rawValue), which voicejournal does not convert")
                }
            }
            initialized = count * channels
        }
        pending.append(contentsOf: converted)
    }

    private func readFailure(_ step: String, _ code: Int32) -> SoundFileError {
        SoundFileError(operation: "decode", path: url.path, reason: "\(step): \(Self.text(of: code))")
    }

    /// FFmpeg's words for an error code, e.g. "Invalid data found when processing input".
    static func text(of code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        return buffer.withUnsafeMutableBufferPointer { String(cString: cffmpeg_error_text(code, $0.baseAddress, $0.count)) }
    }

    /// Switched off once per process, before the first file: libraries never print.
    private static let silenceLogging: Void = cffmpeg_silence_logging()

    /// Frames from the stream's duration (in its time base), else the container's.
    private static func estimatedFrames(container: UnsafeMutablePointer<AVFormatContext>,
                                        stream: UnsafeMutablePointer<AVStream>, sampleRate: Int) -> Int64 {
        let none = cffmpeg_no_timestamp()
        let base = stream.pointee.time_base
        if stream.pointee.duration != none, stream.pointee.duration > 0, base.den > 0 {
            return Int64((Double(stream.pointee.duration) * Double(base.num) / Double(base.den) * Double(sampleRate)).rounded())
        }
        let duration = container.pointee.duration
        if duration != none, duration > 0 {
            return Int64((Double(duration) / Double(cffmpeg_time_base()) * Double(sampleRate)).rounded())
        }
        return 0
    }

    /// A short name for the container its bytes hold: the file's own extension when that
    /// container's demuxer claims it (FFmpeg calls M4A "mov,mp4,m4a,3gp,3g2,mj2" and WebM
    /// "matroska,webm"), else the container's usual extension (a misnamed file is named for
    /// what it is: AAC in MP4 named `.wav` is "m4a").
    private static func formatName(_ format: UnsafePointer<AVInputFormat>?, fileExtension: String) -> String {
        guard let format else { return "audio" }
        let name = String(cString: format.pointee.name)
        let names = name.split(separator: ",").map(String.init)
        let extensions = format.pointee.extensions.map { String(cString: $0).split(separator: ",").map(String.init) } ?? []
        let own = fileExtension.lowercased()
        if !own.isEmpty, names.contains(own) || extensions.contains(own) { return own }
        return ContainerProbe.audioContainers[name] ?? names.first ?? "audio"
    }
}

/// Where one channel's samples sit in a decoded frame's plane, and where they go in the
/// interleaved output.
private struct SampleLayout {
    let source: UnsafeRawPointer
    let first: Int
    let step: Int
    let channel: Int
    let channels: Int
    let count: Int

    func copy<Sample>(_ type: Sample.Type, into out: UnsafeMutablePointer<Float>, _ convert: (Sample) -> Float) {
        let samples = source.assumingMemoryBound(to: Sample.self)
        var input = first, output = channel
        for _ in 0..<count {
            out[output] = convert(samples[input])
            input += step
            output += channels
        }
    }
}
