import Testing
@testable import Playback

/// Placeholder until the player's own tests land; removed then.
@Suite struct PlaybackModuleTests {
    @Test func moduleLinks() { #expect(String(describing: Playback.self) == "Playback") }
}
