import Foundation
import Testing
import VoiceJournalTestSupport

/// The `--json` shapes the end-to-end tests read, in one place so they are easy to check
/// against the commands (`printJSON` of the Store's records; nil values are left out):
/// - a listing (`entry list`, `person list`, `question list`, `assignment list`, `search`) is a
///   JSON array of objects — or an object holding exactly one such array (e.g. `{"hits": […]}`);
/// - every object has an `id` (a number or a string);
/// - an entry (`entry show ID --json`, `entry list --json`) has `transcript`: its text, or an
///   object with a `text` key, or null before transcription; and `mood`;
/// - `question add --json` and `assign --json` print the new object with its `id`;
/// - an assignment has `status` (`pending`, `sent`, `answered`) and `transcript` as for entries;
/// - a search hit has `entryId` and `snippet` (matched words in [brackets]).
enum CLIOutput {
    /// The objects of a listing.
    static func list(_ result: CommandResult) throws -> [[String: Any]] {
        let json = try result.json()
        if let array = json as? [[String: Any]] { return array }
        if let object = json as? [String: Any] {
            let arrays = object.values.compactMap { $0 as? [[String: Any]] }
            if arrays.count == 1 { return arrays[0] }
        }
        throw Unexpected(description: "not a listing: \(result.stdout.prefix(300))")
    }

    /// The single object a `show` prints.
    static func object(_ result: CommandResult) throws -> [String: Any] {
        guard let object = try result.json() as? [String: Any] else {
            throw Unexpected(description: "not a JSON object: \(result.stdout.prefix(300))")
        }
        return object
    }

    /// An `id`-like value (number or string) as a string, for the next command line.
    static func id(_ value: Any?) -> String? {
        switch value {
        case let number as Int: return String(number)
        case let number as NSNumber: return number.stringValue
        case let text as String: return text
        default: return nil
        }
    }

    /// The transcript text of an entry or assignment, nil when it has none.
    static func transcript(_ object: [String: Any]) -> String? {
        switch object["transcript"] {
        case let text as String: return text
        case let nested as [String: Any]: return nested["text"] as? String
        default: return nil
        }
    }
}

/// Output that is not what a test expected to read (JSON, subtitles, a tool's answer).
struct Unexpected: Error, CustomStringConvertible {
    let description: String
}

/// Stops the test with the command's output when a step it depends on failed.
func requireSuccess(_ result: CommandResult, _ step: String,
                    sourceLocation: SourceLocation = #_sourceLocation) throws {
    try #require(result.status == 0, "\(step) exited \(result.status)\nstdout: \(result.stdout)\nstderr: \(result.stderr)",
                 sourceLocation: sourceLocation)
}
