import Foundation
import Logging

extension PlaybackSession {
    /// Plays an audio file. A 16-bit PCM WAV (one or two channels: a recording) that the device
    /// takes at its own rate and channels plays from the file's own mapped bytes, with no
    /// decoder (libsndfile is not even loaded). Anything else is opened (libsndfile, else
    /// FFmpeg) before the device, so a missing, empty or undecodable file is its own error
    /// (`SoundFileError`, `AudioFileProblem`) and no device is touched; then `deviceName` is
    /// opened asking the file's rate and its channels (two at most), taking the nearest the
    /// device has. The file's 16-bit samples go through untouched when the device took its
    /// rate and channels; otherwise they are mixed to the device's channels and, only when
    /// the device cannot take the file's rate, converted with libsamplerate. Plays from `from`
    /// to `to` seconds (clamped to the file), or to the end. `measuresLevel` keeps the level
    /// of what is heard, for a display. `growing`: the file is still being recorded (a WAV's
    /// header then lags what is on disk, and all of it plays). `interactive`: 50 ms periods,
    /// so a pause, a jump or the level follows within one; otherwise the geometry `aplay` uses
    /// (125 ms periods, a 500 ms buffer), which wakes the playback thread (and the card) less
    /// than half as often, and writes of the whole buffer (ALSA still moves them a period at a
    /// time), a quarter of the loop's turns, for playback nobody steers: a stop then waits for
    /// the write under way, half a second at most.
    public convenience init(file: URL, deviceName: String = "default", configuration: ALSAConfiguration? = nil,
                            from: Double = 0, to: Double? = nil, measuresLevel: Bool = false, growing: Bool = false,
                            interactive: Bool = true, limit: DecodeLimit = .plausible, logger: Logger) throws {
        let mapped = MappedPCM(wav: file, growing: growing)
        let decoder = try mapped == nil ? AudioDecoder(url: file, limit: limit, growing: growing) : nil
        let info = mapped?.info ?? decoder?.info ?? AudioFileInfo(frames: 0, sampleRate: 0, channels: 0, format: "audio")
        guard info.sampleRate > 0, info.channels > 0 else {
            throw SoundFileError.notAudio(path: file.path, sndfile: "no sample rate or channels", ffmpeg: "no sample rate or channels")
        }
        // Before any device is opened: a header may declare any rate (2^31 Hz) and no device
        // plays one past the highest rate audio is made at.
        guard info.sampleRate <= AudioFileInfo.highestSampleRate else {
            let said = "a sample rate of \(info.sampleRate) Hz, past any audio's (\(AudioFileInfo.highestSampleRate) Hz)"
            throw SoundFileError.notAudio(path: file.path, sndfile: said, ffmpeg: said)
        }
        if let mapped {
            // The same bounds a decoder would apply to what the header declares (the caller's
            // limit; a length the bytes cannot hold, as a rate of 1 Hz declares).
            try limit.check(declaredSeconds: mapped.info.durationSeconds, fileSize: mapped.fileSize, path: file.path)
        }
        let channels = min(info.channels, 2)
        let format = interactive ? PlaybackFormat(sampleRate: info.sampleRate, channels: channels)
            : PlaybackFormat(sampleRate: info.sampleRate, channels: channels, periodFrames: max(info.sampleRate / 8, 32),
                             bufferFrames: max(info.sampleRate / 8, 32) * 4)
        let device = try PlaybackDevice(name: deviceName, format: format, configuration: configuration)
        let writes = interactive ? nil : device.format.bufferFrames
        let rate = Double(device.format.sampleRate)
        func frame(_ seconds: Double) -> Int64 { frameCount(seconds: seconds, rate: rate) }
        if let mapped, device.format.sampleRate == info.sampleRate, device.format.channels == info.channels {
            self.init(device: device, frames: mapped, startFrame: frame(from), endFrame: to.map(frame), measuresLevel: measuresLevel,
                      fileInfo: info, isResampled: false, framesPerWrite: writes, logger: logger)
            return
        }
        // A WAV the device takes otherwise is decoded after all.
        let source = try FilePlaybackSource(decoder: decoder ?? AudioDecoder(url: file, limit: limit, growing: growing),
                                            device: device.format)
        self.init(device: device, frames: ReadAhead(source, device: device.format), startFrame: frame(from),
                  endFrame: to.map(frame), measuresLevel: measuresLevel, fileInfo: info, isResampled: source.isResampled,
                  framesPerWrite: writes, logger: logger)
    }
}
