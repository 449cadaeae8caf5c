import Foundation
import Testing
import VoiceJournalTestSupport

/// `ask` on the real local chat server over spoken entries a real Whisper transcribed: the
/// answer streams (its first words are out before it is whole), every citation shown points
/// at an entry and a time where its passage's words were said, and `--continue` carries on
/// the same conversation.
@Suite struct AskEndToEndTests {
    @Test func aQuestionAboutASpokenFactIsAnsweredAsItIsWrittenWithCitationsAtTheirWords() async throws {
        let folder = try TemporaryFolder("e2e-ask")
        let whisper = try await WhisperServer.shared(), chat = try await ChatServer.shared()
        var environment = ["OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_CHAT_URL": chat.baseURL, "VOICEJOURNAL_CHAT_MODEL": chat.model]
        let home = folder.path("home")
        for (index, script) in ["This morning I walked to the lake before work. The water was calm and the air was cold.",
                                "Tom fixed the old bicycle in the garage on Sunday."].enumerated() {
            let micFolder = try TemporaryFolder("e2e-ask-mic\(index)") // kept until the take is recorded
            let microphone = try SpeakingMicrophone(saying: script, in: micFolder)
            let recorder = VoicejournalBinary(home: home, environment: environment.merging(microphone.environment) { $1 })
            try requireSuccess(recorder.run(["record", "--device", microphone.device, "--max-duration", "\(microphone.maxDuration)",
                                             "--no-meter", "--wait", "--quiet"]), "record \(index)")
            withExtendedLifetime(micFolder) {}
        }
        environment["COLUMNS"] = "100"
        let voicejournal = VoicejournalBinary(home: home, environment: environment)
        // What the questions below rest on: Whisper heard the lake and the bicycle (tiny.en on espeak-ng's
        // voice hears these words; it misheard "spare key" as "mister, housekey").
        let heard = try voicejournal.run(["search", "lake OR water OR bicycle", "--json"])
        #expect(heard.stdout.contains("\"entryId\" : 1") || heard.stdout.contains("\"entryId\":1"), "transcripts: \((try? voicejournal.run(["entry", "list", "--json"]).stdout) ?? "")")

        // Streamed: stdout grows piece by piece while the process runs.
        let running = try voicejournal.start(["ask", "Where did I walk this morning?"])
        var states: [String] = []
        while running.process.isRunning {
            let now = running.stdoutSoFar
            if !now.isEmpty, now != states.last { states.append(now) }
            usleep(2_000)
        }
        let shown = running.wait()
        #expect(shown.status == 0, "\(shown.stdout)\n\(shown.stderr)")
        let firstSeen = try #require(states.first, "nothing was printed while the answer was written")
        #expect(!firstSeen.contains("Asked \(chat.model)"), "the first words came before the answer was whole: \(states.count) states")
        #expect(shown.stdout.contains("Asked \(chat.model) at 127.0.0.1"))

        let asked = try CLIOutput.object(voicejournal.run(["ask", "What was the water like at the lake?", "--json"]))
        let usage = try #require(asked["usage"] as? [String: Any])
        let first = try #require(usage["firstTextSeconds"] as? Double), whole = try #require(usage["seconds"] as? Double)
        #expect(first < whole, "the first words arrived \(first) s in, the answer ended at \(whole) s")
        #expect((asked["passagesSent"] as? Int ?? 0) >= 1, "\(asked) \((try? voicejournal.run(["entry", "list"]).stdout) ?? "")")
        // Every citation shown is a passage sent: an entry that exists, at the time its words were said.
        for citation in (asked["citations"] as? [[String: Any]]) ?? [] {
            let id = try #require(CLIOutput.id(citation["entryId"]))
            let entry = try CLIOutput.object(voicejournal.run(["entry", "show", id, "--json"]))
            let segments = (entry["segments"] as? [[String: Any]]) ?? []
            let words = segments.flatMap { ($0["words"] as? [[String: Any]]) ?? [] }
            let start = try #require(citation["start"] as? Double), end = try #require(citation["end"] as? Double)
            let text = try #require(citation["text"] as? String)
            if words.isEmpty {
                // No word timings from the server: the passage is whole segments, at their times.
                let inside = segments.filter { ($0["start"] as? Double ?? -1) >= start - 0.001 && ($0["end"] as? Double ?? .infinity) <= end + 0.001 }
                let said = inside.compactMap { ($0["text"] as? String)?.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                #expect(!inside.isEmpty && said.contains(text), "citation \(citation) against segments \(said.debugDescription)")
            } else {
                let inside = words.filter { ($0["start"] as? Double ?? -1) >= start - 0.001 && ($0["end"] as? Double ?? .infinity) <= end + 0.001 }
                let spoken = inside.compactMap { ($0["word"] as? String)?.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
                #expect(spoken == text, "citation \(citation) against words \(spoken.debugDescription)")
            }
            #expect((citation["command"] as? String)?.hasPrefix("voicejournal play \(id)") == true)
        }
        #expect((asked["removedCitations"] as? [Int]).map { _ in true } == true, "taken-out citations are counted, as a list")

        // --continue: the same conversation, a second turn.
        let conversation = try #require(asked["conversation"] as? Int)
        let next = try CLIOutput.object(voicejournal.run(["ask", "--continue", "Who fixed the bicycle?", "--json"]))
        #expect(next["conversation"] as? Int == conversation)
        let turns = try #require(try voicejournal.run(["ask", "--show", "\(conversation)", "--json"]).json() as? [[String: Any]])
        #expect(turns.map { $0["question"] as? String } == ["What was the water like at the lake?", "Who fixed the bicycle?"])
    }
}
