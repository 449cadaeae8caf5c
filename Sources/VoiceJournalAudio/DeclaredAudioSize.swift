/// Where a chunked container's header says its audio starts and how many bytes of it there
/// are: the RIFF/WAVE `data` chunk, AIFF's `SSND`, Wave64's `data`. libsndfile computes such
/// a file's length from the bytes present, so only this header can tell that some are missing.
struct DeclaredAudioSize: Equatable {
    /// Offset of the first audio byte.
    var dataOffset: Int64
    /// How many bytes of audio the header promises.
    var declaredBytes: Int64
    /// Bytes per frame when the header says (PCM), else 0.
    var bytesPerFrame: Int

    /// Bytes of audio the header promises that are not in a file of `fileSize` bytes; a torn
    /// last frame (less than one frame) does not count.
    func missingBytes(fileSize: Int64) -> Int64 {
        let missing = declaredBytes - max(fileSize - dataOffset, 0)
        return missing >= Int64(max(bytesPerFrame, 1)) ? missing : 0
    }

    /// The audio chunk of a WAV, AIFF or Wave64 header (the file's first bytes), or nil for
    /// other containers and for headers that do not know their length (written to a pipe).
    static func parse(_ header: [UInt8]) -> DeclaredAudioSize? {
        guard header.count >= 12 else { return nil }
        switch String(decoding: header[0..<4], as: UTF8.self) {
        case "RIFF": return wav(header)
        case "FORM": return aiff(header)
        case "riff": return wave64(header)
        default: return nil
        }
    }

    private static func wav(_ header: [UInt8]) -> DeclaredAudioSize? {
        guard let layout = try? WAVLayout.parse(header) else { return nil }
        // 0 and 0xFFFFFFFF are what streaming writers leave when they cannot seek back.
        guard layout.declaredDataSize != 0, layout.declaredDataSize != UInt32.max else { return nil }
        return DeclaredAudioSize(dataOffset: Int64(layout.dataOffset), declaredBytes: Int64(layout.declaredDataSize),
                                 bytesPerFrame: layout.blockAlign)
    }

    /// AIFF and AIFF-C: big-endian chunks; `COMM` gives channels and sample size, `SSND`
    /// holds an offset and block size before the audio.
    private static func aiff(_ header: [UInt8]) -> DeclaredAudioSize? {
        let kind = String(decoding: header[8..<12], as: UTF8.self)
        guard kind == "AIFF" || kind == "AIFC" else { return nil }
        var offset = 12
        var bytesPerFrame = 0
        while offset + 8 <= header.count {
            let id = String(decoding: header[offset..<offset + 4], as: UTF8.self)
            let size = Int(bigEndian(header, offset + 4, bytes: 4))
            if id == "COMM", offset + 16 <= header.count {
                let channels = Int(bigEndian(header, offset + 8, bytes: 2))
                let bits = Int(bigEndian(header, offset + 14, bytes: 2))
                bytesPerFrame = channels * ((bits + 7) / 8)
            }
            if id == "SSND" {
                guard offset + 16 <= header.count, size >= 8, size != Int(UInt32.max) else { return nil }
                let skip = Int64(bigEndian(header, offset + 8, bytes: 4))
                return DeclaredAudioSize(dataOffset: Int64(offset) + 16 + skip, declaredBytes: Int64(size) - 8 - skip,
                                         bytesPerFrame: bytesPerFrame)
            }
            offset += 8 + size + (size & 1)
        }
        return nil
    }

    /// Sony Wave64: 16-byte GUID chunk ids whose first four bytes read like RIFF's, 64-bit
    /// little-endian sizes that count the 24-byte chunk header, chunks aligned to 8 bytes.
    private static func wave64(_ header: [UInt8]) -> DeclaredAudioSize? {
        guard header.count >= 40, String(decoding: header[24..<28], as: UTF8.self) == "wave" else { return nil }
        var offset = 40
        var bytesPerFrame = 0
        while offset + 24 <= header.count {
            let id = String(decoding: header[offset..<offset + 4], as: UTF8.self)
            let size = littleEndian64(header, offset + 16)
            guard size >= 24, size < Int64(Int32.max) * 1024 else { return nil }
            if id == "fmt ", offset + 24 + 14 <= header.count {
                bytesPerFrame = Int(header[offset + 36]) | Int(header[offset + 37]) << 8
            }
            if id == "data" {
                return DeclaredAudioSize(dataOffset: Int64(offset + 24), declaredBytes: size - 24, bytesPerFrame: bytesPerFrame)
            }
            offset += Int((size + 7) & ~7)
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, bytes count: Int) -> UInt32 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func littleEndian64(_ bytes: [UInt8], _ offset: Int) -> Int64 {
        bytes[offset..<offset + 8].reversed().reduce(0) { $0 << 8 | Int64($1) }
    }
}
