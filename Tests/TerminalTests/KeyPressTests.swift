import Testing
@testable import VoiceJournalTerminal

@Suite struct KeyPressTests {
    private func keys(_ reads: [[UInt8]]) -> [KeyPress] {
        var reader = KeyPress.Reader()
        return reads.flatMap { reader.keys(from: $0) }
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test(arguments: [("\u{1B}[A", KeyPress.up), ("\u{1B}[B", .down), ("\u{1B}[C", .right), ("\u{1B}[D", .left),
                      ("\u{1B}OA", .up), ("\u{1B}OB", .down), ("\u{1B}OC", .right), ("\u{1B}OD", .left),
                      ("\u{1B}[1;5C", .right), (" ", .space), ("q", .quit), ("Q", .quit), ("\u{03}", .interrupt)])
    func oneKeyPerSequence(text: String, key: KeyPress) {
        #expect(keys([bytes(text)]) == [key])
    }

    @Test func severalKeysInOneRead() {
        #expect(keys([bytes(" \u{1B}[C\u{1B}OD q")]) == [.space, .right, .left, .space, .quit])
    }

    @Test func otherBytesAndSequencesAreSkippedWhole() {
        // Letters, Enter, Home (`ESC [ H`), F5 (`ESC [ 1 5 ~`), Delete, a UTF-8 letter.
        #expect(keys([bytes("ax\r\n\u{1B}[H\u{1B}[15~\u{7F}é")]) == [])
        #expect(keys([bytes("a\u{1B}[15~ b")]) == [.space])
    }

    @Test(arguments: [1, 2, 3, 4])
    func aSequenceCutAcrossReadsIsKept(cut: Int) {
        let whole = bytes(" \u{1B}[1;2A q")
        #expect(keys([Array(whole[..<cut]), Array(whole[cut...])]) == [.space, .up, .space, .quit])
    }

    @Test func everyByteInItsOwnRead() {
        #expect(keys(bytes("\u{1B}[D\u{1B}OB\u{03}").map { [$0] }) == [.left, .down, .interrupt])
    }

    @Test func theRemainderWaitsForTheNextRead() {
        var reader = KeyPress.Reader()
        #expect(reader.keys(from: bytes(" \u{1B}[")) == [.space])
        #expect(reader.pending == bytes("\u{1B}["))
        #expect(reader.keys(from: bytes("C")) == [.right])
        #expect(reader.pending.isEmpty)
    }

    @Test func aLoneEscapeDoesNotSwallowTheNextKey() {
        #expect(keys([[0x1B], bytes("q")]) == [.quit])
        #expect(keys([bytes("\u{1B} ")]) == [.space])
    }

    @Test func aRunawaySequenceIsDropped() {
        // Parameter bytes without end: not a key; the reader does not hold them forever.
        var reader = KeyPress.Reader()
        #expect(reader.keys(from: bytes("\u{1B}[" + String(repeating: "1", count: 40))) == [])
        #expect(reader.pending.count <= 16)
        #expect(reader.keys(from: bytes(" ")) == [.space])
    }
}
