import Foundation
@testable import VoiceJournalPlayback
import VoiceJournalStore
import Testing

/// A recording's stored path, as a crafted import could set it, never leads out of the home.
@Suite struct PlayTargetPathTests {
    let home = DataHome(url: URL(fileURLWithPath: "/srv/journal"))

    @Test(arguments: [("audio/2026/11/a.wav", "/srv/journal/audio/2026/11/a.wav"),
                      ("../../etc/shadow", "/srv/journal/etc/shadow"),
                      ("audio/../../voicejournal.sqlite", "/srv/journal/audio/voicejournal.sqlite"),
                      ("./audio/./b.flac", "/srv/journal/audio/b.flac"),
                      ("/home/me/take.wav", "/home/me/take.wav")])
    func relativePathsStayInTheHome(stored: String, played: String) {
        #expect(PlayTarget.absolute(stored, in: home).path == played)
    }
}
