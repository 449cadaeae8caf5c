import Foundation
import Testing
import VoiceJournalTestSupport

/// `search` in the languages the model writes, through the binary: diacritics folded (a
/// word typed without its accents finds it), case folded in every script that has case,
/// and words of scripts written without spaces (Chinese, Japanese, Korean, Thai) found
/// inside their sentences.
@Suite(.onTestThreads) struct SearchScriptsTests {
    static let texts = [
        "Heute war ein schöner Tag, die Straße war nass",
        "El niño está en casa",
        "L'été dernier était chaud",
        "Das Öl ist teuer",
        "Москва большой город",
        "Η Αθήνα είναι όμορφη",
        "שלום עולם ירושלים",
        "مرحبا بالعالم القاهرة",
        "我今天去北京看朋友",
        "東京タワーに行きました",
        "서울에서 친구를 만났다",
        "ฉันชอบกินข้าวผัด",
        "We walked along the harbour",
    ]

    /// One journal with each text typed as an entry, shared by the table below.
    static let journal = Result { () throws -> (TemporaryFolder, VoicejournalBinary) in
        let folder = try TemporaryFolder("vj-scripts")
        let cli = VoicejournalBinary(home: folder.path("home"))
        for text in texts {
            let result = try cli.run(["entry", "add", "--text", text])
            guard result.status == 0 else { throw SetUpFailure(message: result.stderr) }
        }
        return (folder, cli)
    }

    struct SetUpFailure: Error { let message: String }

    /// The entries a query finds (the texts' ids, from 1, in the order given).
    static func found(_ query: String) throws -> [Int] {
        let (_, cli) = try journal.get()
        let result = try cli.run(["search", query, "--json"])
        #expect(result.status == 0, "\(query): \(result.stderr)")
        let hits = try #require(try result.json() as? [[String: Any]])
        return hits.compactMap { $0["entryId"] as? Int }
    }

    @Test(arguments: [
        // German: the word as written, without its umlaut, in capitals. Porter stems English
        // only: "schön" is not "schöner" (a prefix query finds both); ß is a letter of its own.
        ("schöner", 0), ("schoner", 0), ("SCHÖNER", 0), ("schön*", 0), ("Straße", 0), ("STRASSE", nil), ("schön", nil),
        ("niño", 1), ("nino", 1), ("está", 1), ("ESTA", 1),
        ("été", 2), ("ete", 2), ("ÉTÉ", 2),
        ("ÖL", 3), ("öl", 3), ("ol", 3),
        ("москва", 4), ("МОСКВА", 4),
        // Greek: case folds, accents do not (unicode61 removes only Latin diacritics).
        ("αθήνα", 5), ("ΑΘΉΝΑ", 5), ("αθηνα", nil),
        ("ירושלים", 6), ("القاهرة", 7),
        // Scripts without spaces: a word inside the sentence, in order; another character
        // (simplified 东 for traditional 東) is another word.
        ("北京", 8), ("朋友", 8), ("去北京看", 8), ("京北", nil),
        ("東京", 9), ("タワー", 9), ("行き", 9), ("东京", nil),
        ("서울", 10), ("친구", 10),
        ("ข้าวผัด", 11),
        ("walking", 12), ("HARBOUR", 12),
    ] as [(String, Int?)])
    func aWordIsFoundInItsLanguage(query: String, text: Int?) throws {
        let found = try Self.found(query)
        if let text {
            #expect(found == [text + 1], "\(query): \(Self.texts[text])")
        } else {
            #expect(found.isEmpty, "\(query) found \(found)")
        }
    }

    /// A query without accents matches the word with or without them; with them, the same
    /// (remove_diacritics folds both the text and the query).
    @Test func aQueryWithOrWithoutAccentsFindsBothSpellings() throws {
        let folder = try TemporaryFolder("vj-scripts")
        let cli = VoicejournalBinary(home: folder.path("home"))
        for text in ["Das Wetter ist schön", "Ich bin schon da", "Der Tag war lang"] {
            #expect(try cli.run(["entry", "add", "--text", text]).status == 0)
        }
        for query in ["schon", "schön", "SCHÖN", "SCHON"] {
            let hits = try #require(try cli.run(["search", query, "--json"]).json() as? [[String: Any]])
            #expect(Set(hits.compactMap { $0["entryId"] as? Int }) == [1, 2], "\(query)")
        }
        let marked = try #require(try cli.run(["search", "schon", "--json"]).json() as? [[String: Any]])
        #expect(Set(marked.compactMap { $0["snippet"] as? String }) == ["Das Wetter ist [schön]", "Ich bin [schon] da"])
    }

    @Test func aChineseMatchIsMarkedExactlyAndRankedLikeAnyOther() throws {
        let folder = try TemporaryFolder("vj-scripts")
        let cli = VoicejournalBinary(home: folder.path("home"))
        _ = try cli.run(["journal", "create", "旅行"])
        for text in ["我们在北京住了三天，北京很大，每天都去不同的地方，也吃了很多好吃的东西，还见了老朋友", "北京北京", "上海很好"] {
            #expect(try cli.run(["entry", "add", "--journal", "旅行", "--text", text]).status == 0)
        }
        let hits = try #require(try cli.run(["search", "北京", "--json"]).json() as? [[String: Any]])
        #expect(hits.compactMap { $0["snippet"] as? String }.first == "[北京][北京]", "the denser match first (bm25)")
        #expect(hits.count == 2)
        let text = try cli.run(["search", "北京", "--journal", "旅行", "--limit", "1"]).stdout
        #expect(text.contains("[北京][北京]") && text.contains("旅行"), "\(text)")
        let phrase = try #require(try cli.run(["search", "\"很好\" OR 三天", "--json"]).json() as? [[String: Any]])
        #expect(phrase.count == 2)
    }

    /// Rows written by SQLite alone (Python here; an older voicejournal or the sqlite3 shell
    /// alike) are found too, and a deleted entry's words are gone from the search at once.
    @Test func rowsWrittenWithoutVoicejournalAreFoundAndDeletedOnesAreNot() throws {
        let folder = try TemporaryFolder("vj-scripts")
        let cli = VoicejournalBinary(home: folder.path("home"))
        #expect(try cli.run(["entry", "add", "--text", "我今天去北京看朋友"]).status == 0)
        let database = folder.path("home/voicejournal.sqlite")
        try queryDatabaseWrite(database, """
            INSERT INTO entry (journalId, kind, content, createdAt) VALUES (1, 'text', '明天去上海', '2026-11-20 10:00:00.000')
            """)
        let shanghai = try #require(try cli.run(["search", "上海", "--json"]).json() as? [[String: Any]])
        #expect(shanghai.count == 1)
        try queryDatabaseWrite(database, "UPDATE entry SET content = '明天去广州' WHERE content = '明天去上海'")
        #expect(try #require(try cli.run(["search", "上海", "--json"]).json() as? [Any]).isEmpty)
        #expect(try #require(try cli.run(["search", "广州", "--json"]).json() as? [Any]).count == 1)
        // Deleted through voicejournal: gone from both indexes (the words are not kept anywhere).
        let deleted = try cli.run(["entry", "delete", "1", "--yes"])
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(try #require(try cli.run(["search", "北京", "--json"]).json() as? [Any]).isEmpty)
        let left = try queryDatabase(database, "SELECT count(*) FROM search_index_pending")
        #expect(left.first?.first as? Int == 0)
    }
}
