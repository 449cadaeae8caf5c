import Foundation
import VoiceJournalPages
@testable import VoiceJournalStore
import Testing
import VoiceJournalTestSupport

/// What a delete says, in the words `entry|journal delete` print (see `DeleteCommandTests`),
/// and the question asked before it.
@Suite(.onTestThreads) struct DeletionTextTests {
    let journal: TemporaryJournal
    var store: JournalStore { journal.store }

    init() throws { journal = try TemporaryJournal() }

    @Test func anEntrysPlanSaysWhatGoesAndTheDoneLineSaysItWent() throws {
        let entry = try store.addEntry(journal: nil, title: nil, content: "a walk to the lighthouse", mood: nil, theme: nil)
        let plan = try store.deleter.deletionPlan(.entry(entry.id))
        #expect(DeletionText.describe(plan).hasPrefix("Deleting entry #\(entry.id) removes:\n  1 entry"))
        #expect(DeletionText.summary(plan).hasPrefix("1 entry"))
        let outcome = try #require(try Deletion.run(.entry(entry.id), store: store, confirm: nil, logger: TemporaryJournal.logger))
        #expect(DeletionText.done(outcome) == "Deleted entry #\(entry.id).")
        #expect(try store.entries(EntryFilter()).isEmpty)
    }

    @Test func aJournalsPlanNamesItAndCountsWhatIsInIt() throws {
        _ = try store.createJournal(name: "Travel")
        _ = try store.addEntry(journal: "Travel", title: nil, content: "Lisbon trams", mood: nil, theme: nil)
        _ = try store.addQuestion(journal: "Travel", text: "Where next?")
        let described = DeletionText.describe(try store.deleter.deletionPlan(.journal("Travel")))
        #expect(described.hasPrefix("Deleting journal \"Travel\" removes:"))
        #expect(described.contains("1 journal: \"Travel\""))
        #expect(described.contains("1 question") && described.contains("1 entry"))
    }

    @Test func nothingIsDeletedWhenTheQuestionIsDeclined() throws {
        let entry = try store.addEntry(journal: nil, title: nil, content: "keep me", mood: nil, theme: nil)
        var asked: DeletionPlan?
        let declined = try Deletion.run(.entry(entry.id), store: store, confirm: { plan in
            asked = plan
            return false
        }, logger: TemporaryJournal.logger)
        #expect(declined == nil)
        #expect(asked?.entries == 1)
        #expect(try store.entries(EntryFilter()).count == 1)
        let accepted = try Deletion.run(.entry(entry.id), store: store, confirm: { _ in true }, logger: TemporaryJournal.logger)
        #expect(accepted?.plan.entries == 1)
        #expect(try store.entries(EntryFilter()).isEmpty)
    }
}
