import Foundation

/// Whether the containers browsers record (WebM/Matroska from Chromium and Firefox, MP4 from
/// Safari) hold every byte their structure declares. FFmpeg decodes a cut-off file up to the
/// cut without complaint, and a browser's WebM states no duration to compare with, so the
/// sizes its elements declare are what tell: a file cut anywhere leaves an element (a block,
/// a cluster, the segment, an MP4 box) that claims more bytes than there are.
enum ContainerExtent {
    /// The bytes missing from the end of `url`'s WebM/Matroska or MP4 structure: 0 when whole,
    /// nil for other containers (or a structure too odd to judge, which is left to the decoder).
    static func missingBytes(in url: URL) throws -> Int64? {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let fileSize = Int64(try handle.seekToEnd())
        func read(_ offset: Int64, _ count: Int) throws -> [UInt8] {
            try handle.seek(toOffset: UInt64(offset))
            return [UInt8](try handle.read(upToCount: count) ?? Data())
        }
        let start = try read(0, 12)
        if start.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return try matroska(fileSize: fileSize, read: read) }
        if start.count >= 8, String(decoding: start[4..<8], as: UTF8.self) == "ftyp" { return try mp4(fileSize: fileSize, read: read) }
        return nil
    }

    // MARK: Matroska / WebM (EBML)

    private static let segmentID: UInt32 = 0x1853_8067
    private static let clusterID: UInt32 = 0x1F43_B675

    /// EBML: the header element, then the Segment. A Segment of known size must fit in the
    /// file (FFmpeg and other seekable writers fill it in). A live writer (MediaRecorder)
    /// leaves the Segment's and each Cluster's size unknown: then the elements inside are
    /// walked, and every one whose size is known must end within the file.
    private static func matroska(fileSize: Int64, read: (Int64, Int) throws -> [UInt8]) throws -> Int64? {
        guard let header = try element(at: 0, fileSize: fileSize, read: read), let headerSize = header.size else { return nil }
        var offset = header.dataStart + headerSize
        guard offset <= fileSize else { return offset - fileSize }
        guard let segment = try element(at: offset, fileSize: fileSize, read: read) else { return offset < fileSize ? 1 : nil }
        guard segment.id == segmentID else { return nil }
        if let size = segment.size { return max(segment.dataStart + size - fileSize, 0) }
        offset = segment.dataStart
        while offset < fileSize {
            guard let child = try element(at: offset, fileSize: fileSize, read: read) else { return 1 }
            if let size = child.size {
                let end = child.dataStart + size
                if end > fileSize { return end - fileSize }
                offset = end
            } else if child.id == clusterID {
                // A cluster of unknown size ends where the next top-level element begins: its
                // blocks and the elements after it are walked in one sequence.
                offset = child.dataStart
            } else {
                return nil
            }
        }
        return 0
    }

    /// An EBML element's id, its size (nil: unknown) and where its data starts; nil when its
    /// header is cut off by the end of the file (or is not EBML).
    private static func element(at offset: Int64, fileSize: Int64,
                                read: (Int64, Int) throws -> [UInt8]) throws -> (id: UInt32, size: Int64?, dataStart: Int64)? {
        let bytes = try read(offset, 12)
        guard let first = bytes.first, first != 0 else { return nil }
        let idLength = first.leadingZeroBitCount + 1
        guard idLength <= 4, bytes.count > idLength else { return nil }
        let id = bytes[0..<idLength].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let sizeFirst = bytes[idLength]
        guard sizeFirst != 0 else { return nil }
        let sizeLength = sizeFirst.leadingZeroBitCount + 1
        guard bytes.count >= idLength + sizeLength else { return nil }
        var size = UInt64(sizeFirst & (0xFF >> sizeLength))
        var allOnes = size == UInt64(0xFF >> sizeLength)
        for byte in bytes[(idLength + 1)..<(idLength + sizeLength)] {
            size = size << 8 | UInt64(byte)
            allOnes = allOnes && byte == 0xFF
        }
        let dataStart = offset + Int64(idLength + sizeLength)
        guard !allOnes else { return (id, nil, dataStart) }
        guard size < UInt64(Int64.max / 2) else { return nil }
        return (id, Int64(size), dataStart)
    }

    // MARK: MP4 (ISO base media)

    /// The top-level boxes, fragmented or not, must each end within the file.
    private static func mp4(fileSize: Int64, read: (Int64, Int) throws -> [UInt8]) throws -> Int64? {
        var offset: Int64 = 0
        while offset < fileSize {
            let header = try read(offset, 16)
            guard header.count >= 8 else { return 8 - Int64(header.count) }
            var size = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            if size == 1 {
                guard header.count >= 16 else { return 16 - Int64(header.count) }
                let large = header[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                guard large < UInt64(Int64.max / 2) else { return nil }
                size = Int64(large)
            } else if size == 0 {
                // The last box, to the end of the file.
                return 0
            }
            guard size >= 8 else { return nil }
            if offset + size > fileSize { return offset + size - fileSize }
            offset += size
        }
        return 0
    }
}
