import Foundation
import Testing
import VoiceJournalTestSupport

@Suite(.onTestThreads) struct DevicesTests {
    @Test func listsTheSameCapturePCMsAsArecord() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(in: folder.url, name: "kitchenmic", samples: [0, 0])
        let binary = VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
        let result = try binary.run(["devices"])
        #expect(result.status == 0)
        let arecord = try runTool("arecord", ["-L"], environment: microphone.environment)
        #expect(result.stdout == arecord)
        #expect(result.stdout.contains("kitchenmic\n    voicejournal test microphone\n"))
    }

    @Test func jsonHasNamesAndDescriptions() throws {
        let folder = try TemporaryFolder()
        let microphone = try VirtualMicrophone(in: folder.url, name: "kitchenmic", samples: [0, 0])
        let result = try VoicejournalBinary(home: folder.path("home"), environment: microphone.environment)
            .run(["devices", "--json"])
        #expect(result.status == 0)
        let devices = try #require(try result.json() as? [[String: Any]])
        let names = devices.compactMap { $0["name"] as? String }
        #expect(names.contains("kitchenmic") && names.contains("null"))
        #expect(devices.first { $0["name"] as? String == "kitchenmic" }?["description"] as? String == "voicejournal test microphone")
    }

    /// The speaker, plus two name hints that say their direction (as a card's PCMs do): one
    /// that only plays, one that only captures. Loaded the way `aplay` and voicejournal both read it.
    private func speakerWithDirectedHints(in folder: TemporaryFolder) throws -> [String: String] {
        let speaker = try VirtualSpeaker(in: folder.url, name: "kitchenspk")
        let hints = folder.path("hints.conf")
        try """
        namehint.pcm [
            "speakeronly|plays only|IOIDOutput"
            "micronly|captures only|IOIDInput"
        ]
        """.write(to: hints, atomically: true, encoding: .utf8)
        let path = try #require(speaker.environment["ALSA_CONFIG_PATH"])
        return ["ALSA_CONFIG_PATH": path + ":" + hints.path]
    }

    @Test func playbackListsTheSamePCMsAsAplay() throws {
        let folder = try TemporaryFolder()
        let environment = try speakerWithDirectedHints(in: folder)
        let binary = VoicejournalBinary(home: folder.path("home"), environment: environment)
        let result = try binary.run(["devices", "--playback"])
        #expect(result.status == 0)
        #expect(result.stdout == (try runTool("aplay", ["-L"], environment: environment)))
        #expect(result.stdout.contains("kitchenspk\n    voicejournal test speaker\n"))
        #expect(result.stdout.contains("speakeronly\n    plays only\n"))
        #expect(!result.stdout.contains("micronly"))

        // Without --playback the capture list stays arecord's: the output-only PCM is left out.
        let capture = try binary.run(["devices"])
        #expect(capture.stdout == (try runTool("arecord", ["-L"], environment: environment)))
        #expect(capture.stdout.contains("micronly\n    captures only\n"))
        #expect(!capture.stdout.contains("speakeronly"))
    }

    @Test func playbackJSONHasNamesAndDescriptions() throws {
        let folder = try TemporaryFolder()
        let environment = try speakerWithDirectedHints(in: folder)
        let result = try VoicejournalBinary(home: folder.path("home"), environment: environment)
            .run(["devices", "--playback", "--json"])
        #expect(result.status == 0)
        let devices = try #require(try result.json() as? [[String: Any]])
        let names = devices.compactMap { $0["name"] as? String }
        #expect(names.contains("kitchenspk") && names.contains("speakeronly") && names.contains("null"))
        #expect(!names.contains("micronly"))
        #expect(devices.first { $0["name"] as? String == "kitchenspk" }?["description"] as? String == "voicejournal test speaker")
    }
}
