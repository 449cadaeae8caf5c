import Foundation
import VoiceJournalBatch
import VoiceJournalSettings
import Testing

/// A config error names the line of the table or key it is about, also when the table is
/// named by a dotted header or a dotted key rather than a header of its own.
@Suite struct ConfigLineTests {
    @Test(arguments: [
        // A table of [defaults] on line 3, [defaults] itself on line 1.
        ("[defaults]\nmodel = \"whisper-1\"\n[defaults.extra]\nx = 1\n", 3, "unknown key \"extra\" in [defaults]"),
        ("# settings\n\n[nonsense.sub]\nx = 1\n", 3, "unknown key \"nonsense\" at the top level"),
        ("[defaults]\nmodel = \"whisper-1\"\nextra.x = 1\n", 3, "unknown key \"extra\" in [defaults]"),
        ("[defaults]\nmodel = \"whisper-1\"\n\n[defaults.sub]\n", 4, "unknown key \"sub\" in [defaults]"),
        ("[defaults]\nmodel = \"whisper-1\"\n\n[ \"defaults\" . \"a.b\" ]\n", 4, "unknown key \"a.b\" in [defaults]"),
    ])
    func anErrorNamesTheLineOfTheTableItIsAbout(text: String, line: Int, says: String) {
        do {
            _ = try ConfigFile.parse(text, path: "/c.toml", rules: .voiceJournal)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.description.contains(says), "\(error)")
        }
    }
}
