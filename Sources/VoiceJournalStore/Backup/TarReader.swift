import Foundation

/// Reads a tar archive front to back, as untrusted input: every header checked (see
/// `TarHeader.decode`), every member's content read exactly as long as its header says, and
/// nothing past `limit` bytes in all. Members are handed over as data to copy; their names
/// are only compared, never used as paths.
struct TarReader {
    private let handle: FileHandle
    private let limit: UInt64
    private(set) var offset: UInt64 = 0
    private var pending: UInt64 = 0

    /// Reads from `handle`, at most `limit` bytes in all (the archive's size, when known).
    init(handle: FileHandle, limit: UInt64) {
        self.handle = handle
        self.limit = limit
    }

    /// The next member's header; nil at the archive's end. The previous member's content, if
    /// not read, is skipped.
    mutating func next() throws -> TarHeader? {
        if pending > 0 { try content { _ in } }
        let block = try read(TarHeader.blockSize)
        if block.isEmpty { return nil }  // an archive without its closing blocks
        guard let header = try TarHeader.decode(Array(block)) else { return nil }
        guard header.size <= limit - min(limit, offset) else {
            throw TarError("a member (\(header.name)) says it is longer than the archive")
        }
        pending = header.size
        return header
    }

    /// Hands the current member's content to `body` block by block, then skips its padding.
    mutating func content(_ body: (Data) throws -> Void) throws {
        let size = pending
        while pending > 0 {
            let block = try read(Int(min(pending, 1 << 20)))
            guard !block.isEmpty else { throw TarError("it ends in the middle of a member (the file is cut short)") }
            pending -= UInt64(block.count)
            try body(block)
        }
        let padding = TarHeader.padding(after: size)
        if padding > 0, try read(padding).count != padding { throw TarError("it ends in the middle of a member (the file is cut short)") }
    }

    /// Up to `count` bytes: fewer only at the end of the file. Never past `limit`.
    private mutating func read(_ count: Int) throws -> Data {
        guard offset < limit else { return Data() }
        var data = Data()
        let wanted = Int(min(UInt64(count), limit - offset))
        while data.count < wanted {
            guard let block = try handle.read(upToCount: wanted - data.count), !block.isEmpty else { break }
            data.append(block)
        }
        offset += UInt64(data.count)
        return data
    }
}
