import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
@testable import VoiceJournalServer
import VoiceJournalStore
import Synchronization
import Testing
import VoiceJournalTestSupport

/// `serve` built by its one builder (`buildApplication`) over a temporary journal and driven
/// in-process through Hummingbird's router test client: no socket, no binary.
@Suite struct ServeInProcessTests {
    static let question = "Where did you grow up?"
    static let boundary = "----voicejournalInProcess"

    /// What the server reported, in order.
    final class Events: Sendable {
        private let seen = Mutex<[AnswerServer.Event]>([])
        func add(_ event: AnswerServer.Event) { seen.withLock { $0.append(event) } }
        var all: [AnswerServer.Event] { seen.withLock { $0 } }
    }

    /// A journal with one assignment waiting, and its server's application.
    struct Served {
        let journal: TemporaryJournal
        let assignment: AssignmentSummary
        let events = Events()

        init() throws {
            journal = try TemporaryJournal()
            let store = journal.store
            _ = try store.createJournal(name: "Family")
            _ = try store.addPerson(name: "Grandma", relationship: nil, email: nil)
            let question = try store.addQuestion(journal: "Family", text: ServeInProcessTests.question)
            assignment = try store.assign(questionId: try #require(question.id), to: "Grandma")
        }

        func application(_ configuration: AnswerServer.Configuration = .init()) async throws -> some ApplicationProtocol {
            let events = self.events
            return try await AnswerServer(store: journal.store, configuration: configuration, logger: TemporaryJournal.logger)
                .buildApplication { events.add($0) }
        }

        func recordings() throws -> [[String: Any]] {
            try CaptureDatabase.rows(home: journal.store.home.url, "SELECT * FROM recording WHERE assignmentId = ?", ["\(assignment.id)"])
        }
    }

    /// A multipart upload with `bytes` as its audio part.
    static func upload(_ bytes: [UInt8], type: String = "audio/wav") throws -> (HTTPFields, ByteBuffer) {
        let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"audio\"; filename=\"answer.wav\"\r\nContent-Type: \(type)\r\n\r\n".utf8)
            + bytes + Array("\r\n--\(boundary)--\r\n".utf8)
        let key = try #require(HTTPField.Name("Idempotency-Key"))
        return ([.contentType: "multipart/form-data; boundary=\(boundary)", key: "take-1"], ByteBuffer(bytes: body))
    }

    @Test func servesTheQuestionPageForAWorkingLink() async throws {
        let served = try Served()
        try await served.application().test(.router) { client in
            try await client.execute(uri: "/a/\(served.assignment.linkToken)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body).contains(Self.question))
                #expect(response.headers[.contentSecurityPolicy] == SecurityHeaders.contentSecurityPolicy)
            }
        }
    }

    @Test func answersAnUnknownLinkWithTheOne404() async throws {
        let served = try Served()
        try await served.application().test(.router) { client in
            try await client.execute(uri: "/a/0123456789abcdef0123456789abcdef", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(!String(buffer: response.body).contains(Self.question))
            }
        }
    }

    @Test func storesAnUploadedWAVAsTheAnswer() async throws {
        let served = try Served()
        let wav = try makeTone(at: served.journal.folder.path("tone.wav"), seconds: 1)
        let (headers, body) = try Self.upload(Array(try Data(contentsOf: wav)))
        try await served.application().test(.router) { client in
            try await client.execute(uri: "/a/\(served.assignment.linkToken)/answer", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .ok, "\(String(buffer: response.body))")
                #expect(String(buffer: response.body).contains("\"status\":\"answered\""))
            }
        }
        let recordings = try served.recordings()
        #expect(recordings.count == 1)
        let answered = served.events.all.contains { event in
            if case .answered(served.assignment.id, _, _, false) = event { return true }
            return false
        }
        #expect(answered, "\(served.events.all)")
        #expect(try served.journal.store.assignment(id: served.assignment.id).status == .answered)
    }

    @Test func refusesAnUploadThatIsNotAudio() async throws {
        let served = try Served()
        let (headers, body) = try Self.upload(Array(repeating: UInt8(ascii: "x"), count: 4000))
        try await served.application().test(.router) { client in
            try await client.execute(uri: "/a/\(served.assignment.linkToken)/answer", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .badRequest)
                #expect(String(buffer: response.body).contains("That was not a recording that could be played"))
            }
        }
        #expect(try served.recordings().isEmpty)
    }

    @Test func refusesAnUploadLargerThanTheCap() async throws {
        let served = try Served()
        let (headers, body) = try Self.upload(Array(repeating: 0, count: 4000))
        try await served.application(AnswerServer.Configuration(maxUploadBytes: 2048)).test(.router) { client in
            try await client.execute(uri: "/a/\(served.assignment.linkToken)/answer", method: .post, headers: headers, body: body) { response in
                #expect(response.status == .contentTooLarge)
                #expect(String(buffer: response.body).contains("The recording is too large to send."))
            }
        }
        #expect(try served.recordings().isEmpty)
        #expect(served.events.all.contains(.refused(assignmentId: served.assignment.id, status: 413,
                                                    reason: "The recording is too large to send.", client: "unknown")))
    }

    @Test func saysWhereItListensAndWhereLinksPoint() {
        let local = AnswerServer.Event.listening(.init(host: "127.0.0.1", port: 8787, publicURL: nil, waiting: 1, hostName: "unused"))
        #expect(local.lines == [
            ServeLine(text: "Serving answers on http://127.0.0.1:8787 (links: http://127.0.0.1:8787/a/TOKEN). Ctrl-C stops.", isNotice: false),
            ServeLine(text: "1 assignment waiting; see each one's link with: voicejournal assignment link ID", isNotice: false),
        ])
        let everywhere = AnswerServer.Event.listening(.init(host: "0.0.0.0", port: 80, publicURL: "https://journal.example.org",
                                                            origin: "--public-url", waiting: 2, hostName: "den"))
        #expect(everywhere.lines.map(\.isNotice) == [true, false, false, false])
        #expect(everywhere.lines[1].text == "Serving answers on every interface, port 80 (links: https://journal.example.org/a/TOKEN). Ctrl-C stops.")
        #expect(everywhere.lines[2].text == "Links point to https://journal.example.org (--public-url), not to where it listens.")
        // A public URL that is where it listens needs no such line.
        let same = AnswerServer.Event.listening(.init(host: "127.0.0.1", port: 9000, publicURL: "http://127.0.0.1:9000",
                                                      origin: "public_url in /etc/config.toml", waiting: 0, hostName: "unused"))
        #expect(same.lines.count == 2 && !same.lines.contains { $0.text.hasPrefix("Links point to") })
        let listening = AnswerServer.Listening(host: "::", port: 80, publicURL: nil, waiting: 0, hostName: "den")
        #expect(listening.address == "http://den:80" && listening.links == listening.address)
        #expect(AnswerServer.Listening(host: "::1", port: 9, publicURL: nil, waiting: 0, hostName: "den").address == "http://[::1]:9")
        #expect(AnswerServer.Event.stopped(transcribing: true).lines
            == [ServeLine(text: "stopped; answers not transcribed yet stay queued (voicejournal queue run)", isNotice: true)])
    }
}
