import Foundation
import Testing
import VoiceJournalTestSupport

/// `reflect` on the real local chat server (llama-cpp-python's, SmolLM2-135M-Instruct) over a
/// spoken entry a real Whisper transcribed: every field it keeps passes the checks, and each
/// highlight is a sentence of the entry at the time its words were said.
@Suite struct ReflectEndToEndTests {
    @Test func aSpokenEntryIsReflectedOnWithHighlightsAtTheirWordsAndNotAskedTwice() async throws {
        let folder = try TemporaryFolder("e2e-reflect")
        let script = "This morning I walked to the lake before work. The water was calm and the air was cold. "
            + "Later I finished the report and felt proud of it."
        let microphone = try SpeakingMicrophone(saying: script, in: folder)
        let whisper = try await WhisperServer.shared(), chat = try await ChatServer.shared()
        let voicejournal = VoicejournalBinary(home: folder.path("home"), environment: [
            "OPENAI_BASE_URL": whisper.baseURL, "VOICEJOURNAL_CHAT_URL": chat.baseURL, "VOICEJOURNAL_CHAT_MODEL": chat.model,
        ].merging(microphone.environment) { $1 })
        try requireSuccess(voicejournal.run(["record", "--device", microphone.device, "--max-duration", "\(microphone.maxDuration)",
                                             "--no-meter", "--wait", "--quiet"]), "record")

        let result = try voicejournal.run(["reflect", "last", "--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let reflection = try CLIOutput.object(result)
        #expect(reflection["status"] as? String == "valid", "\(reflection)")
        #expect(reflection["model"] as? String == chat.model && reflection["promptVersion"] as? String == "reflect-1")
        let moods = ["happy", "grateful", "excited", "neutral", "sad", "anxious", "stressed", "angry"]
        #expect(reflection["mood"] is NSNull || moods.contains(reflection["mood"] as? String ?? ""))
        #expect((1...5).contains(reflection["intensity"] as? Int ?? 0))
        #expect(!(reflection["summary"] as? String ?? "").isEmpty && !(reflection["encouragement"] as? String ?? "").isEmpty)
        #expect((1...3).contains((reflection["questions"] as? [String])?.count ?? 0))
        #expect((reflection["people"] as? [String]) == [])
        let usage = try #require(reflection["usage"] as? [String: Any])
        #expect((usage["inputTokens"] as? Int ?? 0) > 50 && usage["cost"] as? Double == 0)

        // Each highlight is the entry's own sentence, at the times of its words.
        let id = try #require(CLIOutput.id(reflection["entry"]))
        let entry = try CLIOutput.object(voicejournal.run(["entry", "show", id, "--json"]))
        let words = ((entry["segments"] as? [[String: Any]]) ?? []).flatMap { ($0["words"] as? [[String: Any]]) ?? [] }
        #expect(!words.isEmpty, "the transcript has word timings")
        for highlight in (reflection["highlights"] as? [[String: Any]]) ?? [] {
            let start = try #require(highlight["start"] as? Double), end = try #require(highlight["end"] as? Double)
            let inside = words.filter { ($0["start"] as? Double ?? -1) >= start - 0.001 && ($0["end"] as? Double ?? .infinity) <= end + 0.001 }
            let spoken = inside.compactMap { ($0["word"] as? String)?.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            #expect(spoken == highlight["text"] as? String, "highlight \(highlight) against words \(spoken.debugDescription)")
            #expect((highlight["play"] as? String)?.hasPrefix("voicejournal play \(id)") == true)
        }
        // entry show has it; asked again without --again, nothing is sent and the same one is shown.
        #expect((entry["reflection"] as? [String: Any])?["id"] as? Int == reflection["id"] as? Int)
        #expect(try voicejournal.run(["entry", "show", id]).stdout.contains("Reflection (\(chat.model)"))
        let again = try voicejournal.run(["reflect", id, "--json"])
        #expect(try CLIOutput.object(again)["id"] as? Int == reflection["id"] as? Int)
        #expect(try CLIOutput.object(voicejournal.run(["stats", "--json"]))["reflections"] as? Int == 1)
    }
}
