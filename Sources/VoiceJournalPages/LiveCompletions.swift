import Foundation
import Logging
import VoiceJournalAudio
import VoiceJournalStore

/// Values a shell completes from what is there now: the entries and journals of the journal
/// the command line names (its `--home`, else `$VOICEJOURNAL_HOME`, else the default), the
/// capture devices ALSA lists. Each takes what argument-parser's custom completion hands
/// over (the words typed, the index of the one being completed, its prefix) and answers
/// those that start with the prefix. It reads only: a missing journal completes nothing and
/// creates nothing; any failure is no candidates, never an error on the user's terminal.
package enum LiveCompletions {
    /// Entry ids, newest first.
    package static func entries(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, read(words) { try $0.entries(EntryFilter(limit: 200)).map { String($0.id) } })
    }

    /// Journal names.
    package static func journals(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, read(words) { try $0.journals().map(\.name) })
    }

    /// People's names.
    package static func people(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, read(words) { try $0.people().map(\.name) })
    }

    /// Capture device names (`voicejournal devices`).
    package static func captureDevices(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(prefix, ((try? CaptureDevice.available()) ?? []).map(\.name))
    }

    private static func matching(_ prefix: String, _ values: [String]) -> [String] {
        values.filter { $0.hasPrefix(prefix) }
    }

    /// What `values` reads from the journal the words name, or nothing.
    private static func read(_ words: [String], _ values: (JournalStore) throws -> [String]) -> [String] {
        let home = DataHome.resolve(flag: homeFlag(in: words))
        guard FileManager.default.fileExists(atPath: home.databaseURL.path),
              let store = try? JournalStore(home: home, for: .reading, logger: Logger(label: "voicejournal.completion")) else { return [] }
        return (try? values(store)) ?? []
    }

    /// The value of `--home DIR` or `--home=DIR` among the words, if given.
    static func homeFlag(in words: [String]) -> String? {
        for (index, word) in words.enumerated() {
            if word == "--home", index + 1 < words.count { return words[index + 1] }
            if word.hasPrefix("--home=") { return String(word.dropFirst("--home=".count)) }
        }
        return nil
    }
}
