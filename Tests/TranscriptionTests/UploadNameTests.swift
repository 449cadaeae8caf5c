import Foundation
import Testing
import VoiceJournalTranscription

/// An upload is named for the container its bytes hold (the probed format), not the name it
/// happens to have: the type sent follows that name.
@Suite struct UploadNameTests {
    @Test(arguments: [
        ("/a/memo.wav", "mp3", "memo.mp3", "audio/mpeg"),
        ("/a/memo.wav", "m4a", "memo.m4a", "audio/mp4"),
        ("/a/Voice Memo", "m4a", "Voice Memo.m4a", "audio/mp4"),
        ("/a/clip.ogg", "webm", "clip.webm", "audio/webm"),
        ("/a/take.opus", "oga", "take.ogg", "audio/ogg"),
        ("/a/interview.2024", "flac", "interview.2024.flac", "audio/flac"),
        // Names that already say what the bytes are stay as they are.
        ("/a/song.ogg", "oga", "song.ogg", "audio/ogg"),
        ("/a/song.mpga", "mp3", "song.mpga", "audio/mpeg"),
        ("/a/clip.mp4", "m4a", "clip.mp4", "audio/mp4"),
        ("/a/take.wav", "wav", "take.wav", "audio/wav"),
    ])
    func theUploadIsNamedForItsBytes(path: String, format: String, name: String, type: String) {
        let file = URL(fileURLWithPath: path)
        let filename = UploadPlan.uploadFilename(for: file, format: format)
        #expect(filename == name)
        #expect(TranscriptionRequest(file: file, filename: filename, options: .init()).contentType == type)
    }
}
