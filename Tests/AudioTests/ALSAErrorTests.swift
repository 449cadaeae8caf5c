import VoiceJournalAudio
import Foundation
import Testing

/// What an ALSA failure tells the user to do: each direction points at its own device list.
@Suite struct ALSAErrorTests {
    @Test func unknownPlaybackDevicePointsAtThePlaybackList() throws {
        let error = #expect(throws: ALSAError.self) {
            try PlaybackDevice(name: "no-such-speaker", format: PlaybackFormat())
        }
        #expect(error?.isUnknownDevice == true)
        #expect(error?.description.contains("voicejournal devices --playback") == true)
    }

    @Test(arguments: [
        // The kind, the function, the errno, and whether the advice is to look at the device list.
        (ALSAError.Kind.open, "snd_pcm_open", ENOENT, true),
        (.open, "snd_pcm_open", EBUSY, false),
        (.negotiate, "snd_pcm_hw_params", EINVAL, false),
        (.prepare, "snd_pcm_prepare", EIO, true),
        (.write, "snd_pcm_writei", EIO, true),
        (.drain, "snd_pcm_drain", EIO, true),
    ])
    func playbackAdviceNeverPointsAtCaptureDevices(kind: ALSAError.Kind, function: String, errno: Int32, listed: Bool) {
        let playback = ALSAError(kind, function: function, code: -errno, device: "spk", direction: .playback)
        #expect(playback.description.hasPrefix("cannot play to 'spk': \(function) failed: "))
        #expect(!playback.description.contains("record"))
        #expect(!playback.description.contains("devices`"))  // capture's list, without --playback
        #expect(playback.description.contains("voicejournal devices --playback") == listed)
        let capture = ALSAError(kind, function: function, code: -errno, device: "mic", direction: .capture)
        #expect(!capture.description.contains("--playback"))
    }
}
