import Foundation

/// One 512-byte header of a POSIX tar archive (ustar), for regular files: what a backup is
/// made of, so any `tar` can list and unpack it (`tar tvf`, `tar xf`).
///
/// Only what a backup needs is written: a name (up to 100 bytes, or 255 with the prefix
/// field), mode 0600, a size (octal up to 8 GiB, base-256 beyond, as GNU and bsdtar read),
/// a modification time and the checksum. Read back, every field is checked: a header that
/// is not ustar, whose checksum is wrong or whose numbers are not numbers is refused.
struct TarHeader: Equatable {
    static let blockSize = 512

    /// What a member is, by its type flag.
    enum Kind: Equatable {
        case file
        case folder
        /// Anything else (a link, a device, an extended header): never read from a backup.
        case other(UInt8)
    }

    var name: String
    var size: UInt64
    var modified: Date
    var kind: Kind = .file

    /// The header's 512 bytes. Throws when the name does not fit.
    func encoded() throws -> [UInt8] {
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        let (prefix, last) = try Self.split(name)
        Self.put(Array(last.utf8), at: 0, in: &block)
        Self.put(Array("0000600".utf8), at: 100, in: &block)
        Self.put(Array("0000000".utf8), at: 108, in: &block)
        Self.put(Array("0000000".utf8), at: 116, in: &block)
        Self.putNumber(size, at: 124, width: 12, in: &block)
        Self.putNumber(UInt64(max(0, modified.timeIntervalSince1970.rounded(.down))), at: 136, width: 12, in: &block)
        block[156] = kind == .folder ? UInt8(ascii: "5") : UInt8(ascii: "0")
        Self.put(Array("ustar".utf8) + [0] + Array("00".utf8), at: 257, in: &block)
        Self.put(Array(prefix.utf8), at: 345, in: &block)
        // The checksum is the sum of the header's bytes with its own field read as spaces.
        for index in 148..<156 { block[index] = UInt8(ascii: " ") }
        let sum = block.reduce(0) { $0 + Int($1) }
        Self.put(Array(String(format: "%06o", sum).utf8) + [0, UInt8(ascii: " ")], at: 148, in: &block)
        return block
    }

    /// The header in `block`; nil for a block of zeros (the archive's end). Throws, naming
    /// the problem, for anything that is not a well-formed ustar header.
    static func decode(_ block: [UInt8]) throws -> TarHeader? {
        guard block.count == blockSize else { throw TarError("it ends in the middle of a header") }
        if block.allSatisfy({ $0 == 0 }) { return nil }
        let magic = Array(block[257..<263])
        guard magic == Array("ustar".utf8) + [0] || magic == Array("ustar ".utf8) else {
            throw TarError("it is not a tar archive (no ustar header where one should be)")
        }
        var unsigned = 0
        for (index, byte) in block.enumerated() { unsigned += (148..<156).contains(index) ? 32 : Int(byte) }
        guard let stored = try? number(block[148..<156]), stored == UInt64(unsigned) else {
            throw TarError("a header's checksum is wrong (the file is damaged)")
        }
        let name = try text(block[0..<100])
        let prefix = try text(block[345..<500])
        let size = try number(block[124..<136])
        let time = (try? number(block[136..<148])) ?? 0
        let kind: Kind = switch block[156] {
        case 0, UInt8(ascii: "0"): .file
        case UInt8(ascii: "5"): .folder
        default: .other(block[156])
        }
        return TarHeader(name: prefix.isEmpty ? name : prefix + "/" + name, size: size,
                         modified: Date(timeIntervalSince1970: TimeInterval(min(time, 1 << 40))), kind: kind)
    }

    /// The bytes of padding after `size` bytes of content, up to the next block.
    static func padding(after size: UInt64) -> Int {
        let rest = Int(size % UInt64(blockSize))
        return rest == 0 ? 0 : blockSize - rest
    }

    // MARK: - Fields

    /// A name split into the prefix field (up to 155 bytes) and the name field (up to 100).
    private static func split(_ name: String) throws -> (prefix: String, name: String) {
        let bytes = Array(name.utf8)
        if bytes.count <= 100 { return ("", name) }
        // The prefix ends at a slash, and the rest (without it) fits the name field.
        for cut in stride(from: min(bytes.count - 1, 155), to: 0, by: -1) where bytes[cut] == UInt8(ascii: "/") {
            guard bytes.count - cut - 1 <= 100 else { break }
            return (String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[(cut + 1)...], as: UTF8.self))
        }
        throw TarError("the name \(name) is too long for a tar archive")
    }

    private static func put(_ bytes: [UInt8], at offset: Int, in block: inout [UInt8]) {
        for (index, byte) in bytes.enumerated() { block[offset + index] = byte }
    }

    /// Octal digits and a NUL where they fit, else base-256 (a first byte of 0x80).
    private static func putNumber(_ value: UInt64, at offset: Int, width: Int, in block: inout [UInt8]) {
        let octal = String(value, radix: 8)
        if octal.utf8.count < width {
            put(Array(String(repeating: "0", count: width - 1 - octal.utf8.count).utf8) + Array(octal.utf8) + [0], at: offset, in: &block)
            return
        }
        block[offset] = 0x80
        for index in 1..<width { block[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(width - 1 - index))) }
    }

    private static func number(_ field: ArraySlice<UInt8>) throws -> UInt64 {
        if field.first == 0x80 {
            var value: UInt64 = 0
            for byte in field.dropFirst() {
                guard value >> 56 == 0 else { throw TarError("a header holds a size too large to be true") }
                value = value << 8 | UInt64(byte)
            }
            return value
        }
        let digits = field.drop(while: { $0 == UInt8(ascii: " ") }).prefix { $0 != 0 && $0 != UInt8(ascii: " ") }
        guard !digits.isEmpty, digits.count <= 22, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) }),
              let value = UInt64(String(decoding: digits, as: UTF8.self), radix: 8) else {
            throw TarError("a header holds a number that is not a number (the file is damaged)")
        }
        return value
    }

    private static func text(_ field: ArraySlice<UInt8>) throws -> String {
        let bytes = field.prefix { $0 != 0 }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw TarError("a member's name is not UTF-8 text") }
        return text
    }
}

/// A tar archive that cannot be written or read, in words that finish "… because …".
struct TarError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
