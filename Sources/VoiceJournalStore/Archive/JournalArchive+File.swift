import Foundation
import VoiceJournalSystem

extension JournalArchive {
    /// The archive in the file at `url` (what `export --format json` wrote). A file that
    /// cannot be read or is not such a document is the user's mistake, named in one line;
    /// the values in it are checked by `JournalStore.importArchive`.
    package static func read(contentsOf url: URL) throws -> JournalArchive {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw StoreError.invalidInput("cannot read \(url.path): \(SystemError.reason(of: error))")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(JournalArchive.self, from: data)
        } catch {
            throw StoreError.invalidInput("\(url.path) is not a voicejournal export (made by: voicejournal export --format json)")
        }
    }
}
