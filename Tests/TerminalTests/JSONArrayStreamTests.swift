import Foundation
import Testing
import VoiceJournalTerminal

/// A JSON array written element by element is the document `JSONText.encode` prints for the
/// whole array, byte for byte, at any depth.
@Suite struct JSONArrayStreamTests {
    struct Item: Encodable {
        var name: String
        var empty: [Int] = []
        var nested: [[String: [Double]]]
        var when = Date(timeIntervalSince1970: 1_790_000_000)
        var missing: String?
    }

    static let items = [
        Item(name: "a \"quoted\"\nline / with slashes", nested: [["x": []], ["y": [1.5, 2]]]),
        Item(name: "", empty: [1], nested: []),
    ]

    @Test(arguments: [0, 1, 2])
    func elementByElementIsTheWholeArraysText(count: Int) throws {
        var text = ""
        var stream = JSONArrayStream { text += $0 }
        for item in Self.items.prefix(count) { try stream.append(item) }
        try stream.finish()
        #expect(text == (try JSONText.encode(Array(Self.items.prefix(count)))))
    }

    @Test func anIndentedArrayIsTheSameAsInsideItsDocument() throws {
        struct Document: Encodable { var rows: [Item] }
        var text = "{\n  \"rows\" : "
        var stream = JSONArrayStream(indent: "  ") { text += $0 }
        for item in Self.items { try stream.append(item) }
        try stream.finish()
        text += "\n}"
        #expect(text == (try JSONText.encode(Document(rows: Self.items))))
    }
}
