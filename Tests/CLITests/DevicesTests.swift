import Foundation
import Testing
import TestSupport

@Suite struct DevicesTests {
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
}
