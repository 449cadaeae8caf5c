/// A key the player acts on, read from a terminal in raw mode.
package enum KeyPress: Sendable, Equatable {
    /// Pause or resume.
    case space
    /// The arrows: `ESC [ A…D` (normal cursor mode) or `ESC O A…D` (application cursor mode);
    /// modifiers (`ESC [ 1 ; 5 C`) are ignored.
    case up, down, right, left
    /// `q` or `Q`.
    case quit
    /// Ctrl-C arriving as a byte (0x03) rather than as SIGINT: quit as an interrupt would.
    case interrupt

    /// Turns the bytes of successive reads into keys. A read may hold several keys, or end in
    /// the middle of an escape sequence: what is left is kept for the next read. Everything
    /// else (letters, Enter, other sequences such as F-keys or Home) is skipped whole.
    package struct Reader: Sendable, Equatable {
        /// The start of an escape sequence still waiting for its end.
        package private(set) var pending: [UInt8] = []

        /// A sequence longer than this is not one a terminal sends for a key: dropped.
        static let longestSequence = 16

        package init() {}

        /// The keys in `bytes`, after what was pending from the previous read.
        package mutating func keys(from bytes: some Sequence<UInt8>) -> [KeyPress] {
            var input = pending
            input.append(contentsOf: bytes)
            pending = []
            var keys: [KeyPress] = []
            var index = 0
            while index < input.count {
                let byte = input[index]
                guard byte == 0x1B else {
                    if let key = Self.plain(byte) { keys.append(key) }
                    index += 1
                    continue
                }
                switch Self.sequence(input[index...]) {
                case .incomplete:
                    pending = Array(input[index...].prefix(Self.longestSequence))
                    return keys
                case .key(let key, let length):
                    if let key { keys.append(key) }
                    index += length
                case .notASequence:
                    // A lone Escape press: skipped, what follows read on its own (Esc then q quits).
                    index += 1
                }
            }
            return keys
        }

        private static func plain(_ byte: UInt8) -> KeyPress? {
            switch byte {
            case UInt8(ascii: " "): .space
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): .quit
            case 0x03: .interrupt
            default: nil
            }
        }

        private enum Parsed {
            case incomplete
            case key(KeyPress?, length: Int)
            case notASequence
        }

        /// The escape sequence at the start of `bytes` (which starts with ESC): CSI (`ESC [`,
        /// parameter and intermediate bytes, one final byte) or SS3 (`ESC O` and one byte).
        private static func sequence(_ bytes: ArraySlice<UInt8>) -> Parsed {
            let start = bytes.startIndex
            guard bytes.count > 1 else { return .incomplete }
            let introducer = bytes[start + 1]
            guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return .notASequence }
            var index = start + 2
            if introducer == UInt8(ascii: "[") {
                // Parameter bytes 0x30–0x3F, then intermediate bytes 0x20–0x2F.
                while index < bytes.endIndex, (0x20...0x3F).contains(bytes[index]) { index += 1 }
            }
            guard index < bytes.endIndex else {
                return index - start >= longestSequence ? .key(nil, length: index - start) : .incomplete
            }
            let final = bytes[index]
            guard (0x40...0x7E).contains(final) else {
                // Not a well-formed sequence: skip its introducer, read the rest as keys.
                return .key(nil, length: 2)
            }
            return .key(arrow(final), length: index - start + 1)
        }

        private static func arrow(_ final: UInt8) -> KeyPress? {
            switch final {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            default: nil
            }
        }
    }
}
