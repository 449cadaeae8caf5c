import Foundation
import VoiceJournalSystem

/// Where the sizes live in a WAV file's header: enough to make a file whose recorder died
/// cover all the audio that reached the disk, and to play a 16-bit one from its own bytes.
struct WAVLayout: Equatable {
    /// Bytes per frame (the `fmt ` chunk's block align).
    var blockAlign: Int
    /// Offset of the `data` chunk's size field.
    var dataSizeOffset: Int
    /// Offset of the first audio byte.
    var dataOffset: Int
    /// What the header says the audio length is, in bytes.
    var declaredDataSize: UInt32
    /// The rest of the `fmt ` chunk; nil when it is too short to hold them.
    var format: Format?

    /// The `fmt ` chunk's description of the samples.
    struct Format: Equatable {
        /// WAVE_FORMAT_PCM (1), IEEE float (3), …; for WAVE_FORMAT_EXTENSIBLE, its subformat's.
        var tag: UInt16
        var channels: Int
        var sampleRate: Int
        var bitsPerSample: Int
    }

    /// True for 16-bit integer PCM in whole 2-byte samples: what ALSA's S16_LE takes as it is.
    var isPCM16: Bool {
        guard let format else { return false }
        return format.tag == 1 && format.bitsPerSample == 16 && format.channels > 0 && blockAlign == 2 * format.channels
    }

    /// Reads the RIFF chunk list up to the `data` chunk.
    static func parse(_ header: [UInt8]) throws -> WAVLayout {
        func half(_ offset: Int) -> UInt16 { UInt16(header[offset]) | UInt16(header[offset + 1]) << 8 }
        func word(_ offset: Int) -> UInt32 { UInt32(half(offset)) | UInt32(half(offset + 2)) << 16 }
        func tag(_ offset: Int) -> String { String(decoding: header[offset..<offset + 4], as: UTF8.self) }
        guard header.count >= 12, tag(0) == "RIFF", tag(8) == "WAVE" else { throw WAVLayoutError.notWAV }
        var offset = 12
        var blockAlign: Int?
        var format: Format?
        while offset + 8 <= header.count {
            let id = tag(offset), size = Int(word(offset + 4))
            if id == "data" {
                guard let blockAlign, blockAlign > 0 else { throw WAVLayoutError.noFormat }
                return WAVLayout(blockAlign: blockAlign, dataSizeOffset: offset + 4, dataOffset: offset + 8,
                                 declaredDataSize: word(offset + 4), format: format)
            }
            if id == "fmt " {
                let body = offset + 8
                guard body + 14 <= header.count else { break }
                blockAlign = Int(half(body + 12))
                if size >= 16, body + 16 <= header.count {
                    format = Format(tag: Self.formatTag(header, fmt: body, size: size), channels: Int(half(body + 2)),
                                    sampleRate: Int(word(body + 4)), bitsPerSample: Int(half(body + 14)))
                }
            }
            offset += 8 + size + (size & 1)
        }
        throw WAVLayoutError.noData
    }

    /// The layout of the WAV open on `descriptor`, from its first 4 KB (where the `data` chunk
    /// nearly always starts), else its first 64 KB when chunks before the audio reach further;
    /// nil when it is not a WAV whose layout is understood.
    static func read(_ descriptor: Int32) -> WAVLayout? {
        for size in [4096, 65_536] {
            var header = [UInt8](repeating: 0, count: size)
            let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, size, 0) }
            guard read > 0 else { return nil }
            if let layout = try? parse(Array(header.prefix(read))) { return layout }
            if read < size { return nil }
        }
        return nil
    }

    /// The format tag of the `fmt ` chunk at `body`: WAVE_FORMAT_EXTENSIBLE (0xFFFE) stands for
    /// its subformat, a GUID whose first two bytes are the tag when the rest is the standard
    /// suffix (anything else is not a tag of WAV's, and reads as 0).
    private static func formatTag(_ header: [UInt8], fmt body: Int, size: Int) -> UInt16 {
        let tag = UInt16(header[body]) | UInt16(header[body + 1]) << 8
        guard tag == 0xFFFE else { return tag }
        let guid = body + 24
        let suffix: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
        guard size >= 40, guid + 16 <= header.count, Array(header[guid + 2..<guid + 16]) == suffix else { return 0 }
        return UInt16(header[guid]) | UInt16(header[guid + 1]) << 8
    }

    /// The sizes that make the header cover every whole frame on disk, or nil when it already
    /// does. Only for files `SoundFileWriter` made: their audio is the last chunk, so
    /// everything after the `data` header is audio.
    func fix(fileSize: Int64) -> (riffSize: UInt32, dataSize: UInt32, fileSize: Int64)? {
        let onDisk = max(fileSize - Int64(dataOffset), 0)
        let whole = wholeFrameBytes(onDisk)
        if Int64(declaredDataSize) == onDisk, whole == onDisk { return nil }
        let dataSize = UInt32(clamping: whole)
        let newSize = Int64(dataOffset) + Int64(dataSize)
        return (UInt32(clamping: newSize - 8), dataSize, newSize)
    }
}

extension WAVLayout {
    /// `bytes` cut to whole frames.
    func wholeFrameBytes(_ bytes: Int64) -> Int64 { bytes - bytes % Int64(blockAlign) }

    /// The audio's bytes in a file of `fileSize`, whole frames only: what the header declares
    /// when that is less than what is on disk (chunks may follow the audio), else everything
    /// after the `data` header; always everything when `growing` (a recording still being
    /// written, its header behind) or when the header declares none.
    func audioBytes(fileSize: Int64, growing: Bool) -> Int64 {
        var bytes = max(fileSize - Int64(dataOffset), 0)
        if !growing, declaredDataSize > 0 { bytes = min(bytes, Int64(declaredDataSize)) }
        return wholeFrameBytes(bytes)
    }
}

/// Why a file could not be read as WAV.
enum WAVLayoutError: Error, CustomStringConvertible {
    case notWAV, noFormat, noData
    var description: String {
        switch self {
        case .notWAV: "not a RIFF/WAVE file"
        case .noFormat: "no format chunk before the audio"
        case .noData: "no data chunk in the first 64 KB"
        }
    }
}

/// Makes an audio file left behind by a recorder that died (SIGKILL, power loss) whole again.
package enum SoundFileRepair {
    /// Fixes the header so it covers every whole frame on disk (WAV), or rewrites the file from
    /// what can be decoded (FLAC), and returns what the file now holds.
    package static func repair(_ url: URL, container: AudioContainer) throws -> AudioFileInfo {
        switch container {
        case .wav: try repairWAV(url)
        case .flac: try rewriteFLAC(url)
        }
        return try SoundFileReader.probe(url)
    }

    private static func repairWAV(_ url: URL) throws {
        // FileHandle's `write(_ data:)` cannot report a failure; the throwing forms can.
        do {
            let handle = try FileHandle(forUpdating: url)
            defer { try? handle.close() }
            let fileSize = Int64(try handle.seekToEnd())
            try handle.seek(toOffset: 0)
            let header = [UInt8](try handle.read(upToCount: 65536) ?? Data())
            let layout: WAVLayout
            do {
                layout = try WAVLayout.parse(header)
            } catch {
                throw SoundFileError(operation: "repair", path: url.path, reason: "\(error)")
            }
            guard let fix = layout.fix(fileSize: fileSize) else { return }
            try handle.seek(toOffset: 4)
            try handle.write(contentsOf: littleEndian(fix.riffSize))
            try handle.seek(toOffset: UInt64(layout.dataSizeOffset))
            try handle.write(contentsOf: littleEndian(fix.dataSize))
            // Drops a half-written last frame.
            try handle.truncate(atOffset: UInt64(fix.fileSize))
            try handle.synchronize()
        } catch let error as SoundFileError {
            throw error
        } catch {
            throw SoundFileError(operation: "repair", path: url.path, reason: SystemError.reason(of: error))
        }
    }

    /// libFLAC writes the sample count and checksum only at close: decode what is there and
    /// encode it again, then put the new file in place.
    private static func rewriteFLAC(_ url: URL) throws {
        let reader = try SoundFileReader(url: url)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".repair-\(url.lastPathComponent)")
        try? FileManager.default.removeItem(at: temporary)
        let writer = try SoundFileWriter(creating: temporary, container: .flac,
                                         sampleRate: reader.info.sampleRate, channels: reader.info.channels)
        do {
            while true {
                // A torn last frame ends decoding with an error; everything before it is kept.
                guard let block = try? reader.readInt16(frames: 4096), !block.isEmpty else { break }
                try block.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    try writer.write(base, frames: block.count / reader.info.channels)
                }
            }
            try writer.close()
            guard rename(temporary.path, url.path) == 0 else {
                throw SystemError.soundFile("replace", path: url.path)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    private static func littleEndian(_ value: UInt32) -> Data {
        withUnsafeBytes(of: value.littleEndian) { Data($0) }
    }
}
