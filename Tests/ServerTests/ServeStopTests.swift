import Foundation
import Testing
import VoiceJournalTestSupport

/// How `serve` ends: killed mid-upload it leaves nothing half-done; SIGTERM lets the upload
/// in flight finish first.
@Suite(.onTestThreads, .serialized) struct ServeStopTests {
    /// A curl upload paced to ~`rate` bytes a second, started in the background.
    private func slowUpload(_ serve: ServeHarness, token: String, file: URL, rate: String, key: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-o", "/dev/stderr", "-w", "%{http_code}", "--limit-rate", rate, "--max-time", "60",
                             "-H", "Idempotency-Key: \(key)", "-F", "audio=@\(file.path);type=audio/wav",
                             serve.base + "/a/\(token)/answer"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        return (process, out)
    }

    /// Waits until the server has started writing an upload into incoming/.
    private func waitForPartialUpload(_ serve: ServeHarness) throws {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let file = serve.files(in: "incoming").first,
               let size = try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int, size > 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        // NIO may keep the file invisible until it is complete: then the upload is at least under way.
        Thread.sleep(forTimeInterval: 1)
    }

    private func wav(_ serve: ServeHarness, seconds: Int) throws -> URL {
        try makeTone(at: serve.folder.path("answer-\(seconds).wav"), seconds: Double(seconds), frequency: 330)
    }

    @Test func killedDuringAnUploadItLinksNoHalfFileAndTheNextUploadSucceeds() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let audio = try wav(serve, seconds: 20)  // 640 kB: ~6 s at the pace below
        let (curl, _) = try slowUpload(serve, token: token, file: audio, rate: "100k", key: "take-1")
        try waitForPartialUpload(serve)
        let killed = serve.stop(signal: SIGKILL)
        #expect(killed?.status == 128 + SIGKILL)
        curl.waitUntilExit()
        #expect(try serve.recordings(of: id).isEmpty && serve.files(in: "audio").isEmpty)
        #expect(try serve.row(id)["status"] as? String == "pending")

        try serve.start()
        #expect(serve.files(in: "incoming").isEmpty)  // what the killed server left is cleared
        let reply = try serve.upload(token, audio, type: "audio/wav", key: "take-1")
        #expect(reply.status == 200, "\(reply.body)")
        let recordings = try serve.recordings(of: id)
        #expect(recordings.count == 1 && (recordings.first?["durationSeconds"] as? Double ?? 0) > 19.9)
        #expect(try serve.row(id)["status"] as? String == "answered")
    }

    @Test func sigtermLetsTheUploadInFlightFinish() throws {
        let serve = try ServeHarness()
        let (id, token) = try serve.assignment()
        let audio = try wav(serve, seconds: 10)  // 320 kB: ~3 s at the pace below
        let (curl, out) = try slowUpload(serve, token: token, file: audio, rate: "100k", key: "take-1")
        try waitForPartialUpload(serve)
        let stopped = serve.stop(signal: SIGTERM)
        curl.waitUntilExit()
        let status = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(status == "200", "curl saw \(status)")
        #expect(stopped?.status == 0, "\(stopped?.stderr ?? "")")
        #expect(try serve.recordings(of: id).count == 1)
        #expect(try serve.row(id)["status"] as? String == "answered")
    }
}
