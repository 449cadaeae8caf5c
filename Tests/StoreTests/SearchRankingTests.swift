import Foundation
import GRDB
import Testing
import VoiceJournalTestSupport
@testable import VoiceJournalStore

/// Search ranks inside FTS5 and looks at only the best rows: these tests prove the answers
/// are still the best ones when a filter or an entry's several matches thin that list out.
@Suite(.onTestThreads) struct SearchRankingTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    /// A voice entry with one recording and transcript per text (an entry can hold several).
    func addVoiceEntry(_ transcripts: [String], title: String? = nil) throws -> Int64 {
        try store.pool.write { db in
            let journal = try JournalStore.journalForNewEntry(db, named: nil)
            var entry = Entry(journalId: journal.id!, kind: .voice, title: title, content: "")
            try entry.insert(db)
            for (index, text) in transcripts.enumerated() {
                var recording = Recording(path: "/tmp/\(entry.id!)-\(index).wav", sha256: "\(entry.id!)-\(index)",
                                          sampleRate: 16000, channels: 1, format: "wav", state: .complete, entryId: entry.id)
                try recording.insert(db)
                var transcript = Transcript(recordingId: recording.id!, text: text, model: "whisper-1")
                try transcript.insert(db)
            }
            return entry.id!
        }
    }

    /// An answered assignment whose transcript says `text`.
    func addAnswer(_ text: String) throws -> Int64 {
        _ = try store.createJournal(name: "Family")
        let question = try store.addQuestion(journal: "Family", text: "What is the sea like?")
        let assignment = try store.assign(questionId: question.id!, to: "me")
        try store.pool.write { db in
            var recording = Recording(path: "/tmp/answer.wav", sha256: "answer", sampleRate: 16000, channels: 1,
                                      format: "wav", state: .complete, assignmentId: assignment.id)
            try recording.insert(db)
            var transcript = Transcript(recordingId: recording.id!, text: text, model: "whisper-1")
            try transcript.insert(db)
        }
        return assignment.id
    }

    /// Each filter keeps exactly the weak matches (old gratitude entries in Trips, sad, about
    /// health) or exactly the strong ones (Personal).
    static let filters: [(name: String, filter: EntryFilter, keepsWeak: Bool)] = [
        ("journal", EntryFilter(journal: "Trips"), true),
        ("mood", EntryFilter(mood: .sad), true),
        ("theme", EntryFilter(theme: .health), true),
        ("kind", EntryFilter(kind: .gratitude), true),
        ("until", EntryFilter(until: Date(timeIntervalSince1970: 1_600_000_000)), true),
        ("since and until", EntryFilter(since: Date(timeIntervalSince1970: 1_500_000_000),
                                        until: Date(timeIntervalSince1970: 1_600_000_000)), true),
        ("a filter most matches pass", EntryFilter(journal: "Personal"), false),
    ]

    /// With 2 weak entries of 42 a filter keeping them is narrow (its rows are ranked on
    /// their own); with 6 of 46 it is broad (the best rows overall are looked through first).
    @Test(arguments: filters.indices, [2, 6])
    func aFilterReturnsItsBestMatchesEvenFromBelowTheUnfilteredTop(_ index: Int, weakCount: Int) throws {
        let (name, filter, keepsWeak) = Self.filters[index]
        _ = try store.createJournal(name: "Trips")
        // Forty short entries saying "harbour" three times outrank everything else.
        var strong: [Int64] = []
        for i in 0..<40 {
            strong.append(try store.addEntry(journal: nil, title: nil, content: "harbour harbour harbour \(i)",
                                             mood: .happy, theme: .work).id)
        }
        // Weak matches, each diluted by more other words than the one before.
        var weak: [Int64] = []
        for i in 0..<weakCount {
            let filler = Array(repeating: "and then the boats came in", count: i + 1).joined(separator: " ")
            weak.append(try store.addEntry(journal: "Trips", kind: .gratitude, title: nil, content: "harbour \(filler)",
                                           mood: .sad, theme: .health, createdAt: Date(timeIntervalSince1970: 1_550_000_000)).id)
        }
        _ = try addAnswer("harbour harbour harbour harbour")
        let everything = try store.search("harbour", limit: 100)
        #expect(everything.count == 41 + weakCount)
        let unfilteredTop = try store.search("harbour", limit: 20)
        #expect(Set(unfilteredTop.compactMap(\.entryId)).isDisjoint(with: weak), "the weak matches rank below the top 20")

        let kept = Set(keepsWeak ? weak : strong)
        let expected = Array(everything.filter { $0.entryId.map(kept.contains) ?? false }.prefix(3))
        let hits = try store.search("harbour", filter: filter, limit: 3)
        #expect(hits == expected, "\(name)")
        #expect(hits.count == min(3, kept.count) && hits.allSatisfy { $0.snippet.contains("[harbour]") }, "\(name)")
        if keepsWeak {
            #expect(hits.map(\.entryId) == weak.prefix(3).map { $0 }, "\(name): fewest other words first")
        }
        // All of the filtered matches when asked for more than there are.
        let all = try store.search("harbour", filter: filter, limit: 50)
        #expect(all == everything.filter { $0.entryId.map(kept.contains) ?? false }, "\(name)")
    }

    @Test func anEntryMatchingManyTimesCountsOnceAndTheNextEntriesStillFillTheList() throws {
        // Six matching transcripts under one entry fill the first rows the ranking looks at.
        let many = try addVoiceEntry(Array(repeating: "lantern lantern", count: 6), title: "lantern")
        let other = try addVoiceEntry(["a lantern by the door, and the rest of a long evening"])
        let third = try store.addEntry(journal: nil, title: nil, content: "one lantern among many other words said here",
                                       mood: nil, theme: nil).id
        let hits = try store.search("lantern", limit: 3)
        #expect(hits.map(\.entryId) == [many, third, other])
        #expect(try store.search("lantern", limit: 2).map(\.entryId) == [many, third])
    }

    @Test func answersToAssignmentsPassOnlyTheFiltersAnAnswerCanMeet() throws {
        let assignment = try addAnswer("the tide came over the harbour wall")
        let entry = try store.addEntry(journal: nil, title: nil, content: "harbour lights", mood: .happy, theme: nil).id
        #expect(Set(try store.search("harbour").map { $0.entryId ?? -$0.assignmentId! }) == [entry, -assignment])
        // An answer has no mood or theme, and is no typed kind.
        #expect(try store.search("harbour", filter: EntryFilter(mood: .happy)).map(\.entryId) == [entry])
        #expect(try store.search("harbour", filter: EntryFilter(kind: .text)).map(\.entryId) == [entry])
        // Its journal is its question's; its person narrows to answers only.
        #expect(try store.search("harbour", filter: EntryFilter(journal: "Family")).map(\.assignmentId) == [assignment])
        #expect(try store.search("harbour", person: "me").map(\.assignmentId) == [assignment])
        #expect(try store.search("harbour", filter: EntryFilter(journal: "Personal"), person: "me").isEmpty)
        #expect(try store.search("harbour", limit: 0).isEmpty)
    }
}
