import Foundation

/// When a file's audio was recorded, as its container says: a Broadcast WAV's `bext`
/// origination date and time (the recorder's local time), or an MP4/M4A/MOV's `mvhd`
/// creation time (UTC, what FFmpeg calls `creation_time`). Nil when the file says nothing
/// (or says 0, or a date before 1970): the caller falls back to the file's modification time.
///
/// The file is untrusted: only chunk and box headers are read (a few bytes each, seeking
/// over the rest), at most `headersRead` of them, and never past the file's end.
package enum RecordedDate {
    /// The most chunk or box headers looked at in one file.
    static let headersRead = 64

    /// The date the container of the file at `url` names, if it names one.
    package static func of(_ url: URL, timeZone: TimeZone = .current) -> Date? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 12, (try? handle.seek(toOffset: 0)) != nil,
              let head = try? handle.read(upToCount: 12), head.count == 12 else { return nil }
        let reader = Reader(handle: handle, size: size)
        if head.prefix(4) == Data("RIFF".utf8), head[8..<12] == Data("WAVE".utf8) {
            return reader.bextDate(timeZone: timeZone)
        }
        if head[4..<8] == Data("ftyp".utf8) { return reader.movieCreationDate() }
        return nil
    }

    private struct Reader {
        let handle: FileHandle
        let size: UInt64

        /// `length` bytes at `offset`, or nil when the file ends first.
        func bytes(at offset: UInt64, _ length: Int) -> Data? {
            guard offset + UInt64(length) <= size, (try? handle.seek(toOffset: offset)) != nil,
                  let data = try? handle.read(upToCount: length), data.count == length else { return nil }
            return data
        }

        /// The `bext` chunk's OriginationDate (10 characters, `yyyy-mm-dd` or `yyyy:mm:dd`) and
        /// OriginationTime (8, `hh:mm:ss` or `hh-mm-ss`), at offsets 320 and 330 of its body.
        func bextDate(timeZone: TimeZone) -> Date? {
            var offset: UInt64 = 12
            for _ in 0..<RecordedDate.headersRead {
                guard let header = bytes(at: offset, 8) else { return nil }
                let length = UInt64(header.littleEndianUInt32(at: 4))
                if header.prefix(4) == Data("bext".utf8) {
                    guard length >= 338, let stamp = bytes(at: offset + 8 + 320, 18) else { return nil }
                    return Self.date(String(decoding: stamp.prefix(10), as: UTF8.self), String(decoding: stamp.suffix(8), as: UTF8.self),
                                     timeZone: timeZone)
                }
                offset += 8 + length + (length & 1) // chunks are padded to an even length
            }
            return nil
        }

        /// `mvhd`'s creation time, in `moov`: seconds since 1904-01-01 UTC (32 bits in a
        /// version 0 box, 64 in version 1).
        func movieCreationDate() -> Date? {
            guard let moov = box("moov", from: 0, to: size),
                  let mvhd = box("mvhd", from: moov.body, to: moov.end),
                  let version = bytes(at: mvhd.body, 1)?.first else { return nil }
            let seconds: UInt64
            if version == 1 {
                guard let field = bytes(at: mvhd.body + 4, 8) else { return nil }
                seconds = field.bigEndianUInt64(at: 0)
            } else {
                guard let field = bytes(at: mvhd.body + 4, 4) else { return nil }
                seconds = UInt64(field.bigEndianUInt32(at: 0))
            }
            let since1970 = Double(seconds) - 2_082_844_800 // 1904-01-01 to 1970-01-01
            // 0 (or anything before 1970) is "not set", as many encoders leave it.
            guard since1970 > 0, since1970 < 32_503_680_000 else { return nil }
            return Date(timeIntervalSince1970: since1970)
        }

        /// The first box of `type` between `start` and `end`: where its body starts and where it ends.
        private func box(_ type: String, from start: UInt64, to end: UInt64) -> (body: UInt64, end: UInt64)? {
            var offset = start
            for _ in 0..<RecordedDate.headersRead {
                guard offset + 8 <= end, let header = bytes(at: offset, 8) else { return nil }
                var length = UInt64(header.bigEndianUInt32(at: 0)), headerLength: UInt64 = 8
                if length == 1 { // a 64-bit size follows
                    guard let large = bytes(at: offset + 8, 8) else { return nil }
                    length = large.bigEndianUInt64(at: 0)
                    headerLength = 16
                } else if length == 0 { // to the end of its parent
                    length = end - offset
                }
                guard length >= headerLength, length <= end - offset else { return nil }
                if header[4..<8] == Data(type.utf8) { return (offset + headerLength, offset + length) }
                offset += length
            }
            return nil
        }

        /// `yyyy-mm-dd` (or `:`, or any separator) and `hh:mm:ss` (or `-`; unreadable: midnight),
        /// the recorder's local time. The two fields sit side by side with nothing between.
        static func date(_ day: String, _ time: String, timeZone: TimeZone) -> Date? {
            func numbers(_ text: String) -> [Int] {
                String(text.map { $0.isASCII && $0.isNumber ? $0 : " " }).split(separator: " ").compactMap { Int($0) }
            }
            let date = numbers(day), clock = numbers(time)
            guard date.count == 3, (1970...9999).contains(date[0]), (1...12).contains(date[1]), (1...31).contains(date[2]) else { return nil }
            var components = DateComponents(year: date[0], month: date[1], day: date[2])
            if clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0..<61).contains(clock[2]) {
                (components.hour, components.minute, components.second) = (clock[0], clock[1], clock[2])
            }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(from: components)
        }
    }
}

private extension Data {
    func littleEndianUInt32(at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(self[startIndex + index + $1]) << (8 * $1) }
    }

    func bigEndianUInt32(at index: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(self[startIndex + index + $1]) }
    }

    func bigEndianUInt64(at index: Int) -> UInt64 {
        (0..<8).reduce(0) { $0 << 8 | UInt64(self[startIndex + index + $1]) }
    }
}
