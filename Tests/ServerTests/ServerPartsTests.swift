import Foundation
@testable import VoiceJournalServer
@testable import VoiceJournalSystem
import Testing

/// The server's pure parts, in-process: the streaming multipart reader, escaping, the
/// token comparison, the rate limiter.
@Suite struct ServerPartsTests {
    static let boundary = "----voicejournalBoundary7MA4YWxk"

    static func body(audio: [UInt8]) -> [UInt8] {
        Array("preamble\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n".utf8)
            + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"answer.webm\"\r\nContent-Type: audio/webm\r\n\r\n".utf8)
            + audio + Array("\r\n--\(boundary)--\r\nepilogue".utf8)
    }

    /// Feeds `body` in pieces of `size` bytes and gathers the audio part's content.
    static func read(_ body: [UInt8], pieces size: Int) throws -> (events: [MultipartReader.Event], audio: [UInt8]) {
        var reader = MultipartReader(boundary: boundary)
        var events: [MultipartReader.Event] = [], audio: [UInt8] = [], inAudio = false
        var offset = 0
        while offset < body.count {
            for event in try reader.feed(body[offset..<min(offset + size, body.count)]) {
                switch event {
                case .partStart(let name, _, _): inAudio = name == "audio"; events.append(event)
                case .content(let bytes): if inAudio { audio += bytes }
                default: events.append(event)
                }
            }
            offset += size
        }
        return (events, audio)
    }

    @Test(arguments: [1, 2, 7, 33, 34, 35, 64, 1000, 100_000])
    func readsTheAudioPartWhateverTheChunkSizes(size: Int) throws {
        // Audio that holds near-delimiters: CR LF and dashes, the boundary without its dashes.
        var generator = SystemRandomNumberGenerator()
        var audio = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) }
        audio.insert(contentsOf: Array("\r\n-\(Self.boundary)\r\n--".utf8), at: 100)
        audio += Array("\r\n--".utf8)
        let (events, read) = try Self.read(Self.body(audio: audio), pieces: size)
        #expect(read == audio)
        #expect(events == [
            .partStart(name: "note", filename: nil, contentType: nil), .partEnd,
            .partStart(name: "audio", filename: "answer.webm", contentType: "audio/webm"), .partEnd, .finished,
        ])
    }

    @Test func refusesABodyThatBreaksTheFormat() {
        var reader = MultipartReader(boundary: Self.boundary)
        #expect(throws: MultipartReader.Malformed.self) {
            _ = try reader.feed(Array("--\(Self.boundary)XX\r\n".utf8))
        }
        var endless = MultipartReader(boundary: Self.boundary)
        #expect(throws: MultipartReader.Malformed.self) {
            _ = try endless.feed(Array("--\(Self.boundary)\r\n".utf8) + Array(repeating: UInt8(ascii: "a"), count: 9000))
        }
    }

    @Test func findsTheBoundaryInTheContentType() {
        #expect(MultipartReader.boundary(contentType: "multipart/form-data; boundary=\"abc def\"") == "abc def")
        #expect(MultipartReader.boundary(contentType: "Multipart/Form-Data;boundary=xyz") == "xyz")
        #expect(MultipartReader.boundary(contentType: "application/json") == nil)
        #expect(MultipartReader.boundary(contentType: "multipart/form-data") == nil)
    }

    @Test func escapesMarkupAndControlCharacters() {
        #expect(HTMLText.escaped("<script>alert('x')</script> & \"q\"") == "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;")
        #expect(HTMLText.escaped("a\u{1B}[31mb\nc") == "a\u{FFFD}[31mb\nc")
        #expect(HTMLText.escaped("Grüße 👋") == "Grüße 👋")
    }

    @Test func comparesTokensWhole() {
        let token = "0123456789abcdef0123456789abcdef"
        #expect(ConstantTime.equal(token, token))
        #expect(!ConstantTime.equal(token, String(token.dropLast()) + "0"))
        #expect(!ConstantTime.equal(token, String(token.dropLast())))
        #expect(!ConstantTime.equal(token, token + "0"))
        #expect(!ConstantTime.equal("", "a") && ConstantTime.equal("", ""))
    }

    @Test func rateLimitAllowsABurstThenRefillsOverTime() {
        let limiter = RateLimiter(60, per: 60, burst: 3)
        #expect((0..<3).allSatisfy { _ in limiter.take("a", now: 100) == nil })
        let wait = limiter.take("a", now: 100)
        #expect(wait.map { $0 > 0.9 && $0 <= 1 } == true)
        #expect(limiter.take("b", now: 100) == nil)  // each key has its own bucket
        #expect(limiter.take("a", now: 101.01) == nil)
    }

    @Test func namesUploadsByWhatBrowsersRecord() {
        #expect(UploadReceiver.fileExtension(contentType: "audio/webm;codecs=opus", filename: "blob") == "webm")
        #expect(UploadReceiver.fileExtension(contentType: "audio/mp4", filename: nil) == "m4a")
        #expect(UploadReceiver.fileExtension(contentType: "application/octet-stream", filename: "take.FLAC") == "flac")
        #expect(UploadReceiver.fileExtension(contentType: nil, filename: "../../etc/passwd") == nil)
    }
}
