import VoiceJournalStore

/// An entry as the command line names it: its id, or `last` (the newest).
package enum EntryReference: Sendable, Equatable {
    case id(Int64)
    case last

    /// Reads `text`; anything but an id or `last` is refused with what to give.
    package init(_ text: String) throws {
        if text.lowercased() == "last" {
            self = .last
        } else if let id = Int64(text), id > 0 {
            self = .id(id)
        } else {
            throw Mistake()
        }
    }

    struct Mistake: Error, CustomStringConvertible {
        var description: String { "give an entry's id (see 'entry list') or last" }
    }
}

extension JournalStore {
    /// The entry `reference` names: by its id, or the newest.
    package func entryView(_ reference: EntryReference) throws -> EntryView {
        switch reference {
        case .id(let id): return try entryView(id: id)
        case .last:
            guard let newest = try entries(EntryFilter(limit: 1)).first else { throw StoreError.notFound("there are no entries yet") }
            return try entryView(id: newest.id)
        }
    }
}
