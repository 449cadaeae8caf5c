import Foundation
import Testing
import VoiceJournalTestSupport
import VoiceJournalStore

@Suite(.onTestThreads) struct ContentDigestTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func matchesTheStandardVectors(input: String, digest: String) throws {
        #expect(try ContentDigest.sha256(Data(input.utf8)) == digest)
    }

    @Test func hashesALargeFileInBlocksLikeSha256sum() throws {
        let folder = try TemporaryFolder()
        let file = folder.path("big.bin")
        // 3 MiB + 7 bytes: crosses the reader's 1 MiB blocks and SHA-256's 64-byte blocks unevenly.
        var bytes = [UInt8](repeating: 0, count: 3 << 20 + 7)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: index &* 31 &+ index >> 9) }
        try Data(bytes).write(to: file)
        let expected = try runTool("sha256sum", [file.path]).split(separator: " ").first.map(String.init)
        #expect(try ContentDigest.sha256(fileAt: file) == expected)
    }
}
