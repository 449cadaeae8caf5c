import VoiceJournalCSndFile
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import VoiceJournalSystem

/// A read-only view of a WAV file a recorder is still writing, for libsndfile's virtual I/O:
/// the bytes on disk up to the last whole frame, with the two size fields (RIFF and `data`)
/// saying so. libsndfile believes a WAV header's `data` size and reads no further, and
/// `SoundFileWriter` brings the header up to date only every half second or so (before its
/// first update it says 0 bytes): read through this view, a recording in progress plays as
/// far as it has reached, and the file itself is never written.
///
/// Only for files `SoundFileWriter` made (their audio is the last chunk, see `WAVLayout.fix`).
/// The length is fixed when the view is made; audio written after that is not seen.
final class GrowingWAV {
    private let descriptor: Int32
    /// Bytes the view holds: the header and every whole frame on disk when it was made.
    let length: Int64
    /// Bytes shown in place of the file's own (little-endian size fields).
    private let patches: [(offset: Int64, bytes: [UInt8])]
    private(set) var position: Int64 = 0

    /// The view of `url`, or nil when there is no need for one (the header covers every frame
    /// on disk) or the file is not a WAV whose layout is understood (then it is opened as it is).
    init?(_ url: URL) throws {
        let descriptor = Glibc.open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw SystemError.soundFile("open", path: url.path) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, let layout = WAVLayout.read(descriptor),
              let fix = layout.fix(fileSize: Int64(status.st_size)) else {
            Glibc.close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        length = fix.fileSize
        patches = [(4, Self.littleEndian(fix.riffSize)), (Int64(layout.dataSizeOffset), Self.littleEndian(fix.dataSize))]
    }

    deinit { Glibc.close(descriptor) }

    /// Opens the view with libsndfile; the handle reads through `self`, which must outlive it.
    func openHandle(path: String, sndfile: LibSndFile) throws -> (handle: OpaquePointer, info: SF_INFO) {
        var io = SF_VIRTUAL_IO(
            get_filelen: { user in GrowingWAV.of(user)?.length ?? -1 },
            seek: { offset, whence, user in GrowingWAV.of(user)?.seek(offset, whence: whence) ?? -1 },
            read: { buffer, count, user in GrowingWAV.of(user)?.read(into: buffer, count: count) ?? -1 },
            // Opened for reading only: libsndfile never writes through it.
            write: { _, _, _ in 0 },
            tell: { user in GrowingWAV.of(user)?.position ?? -1 })
        var info = SF_INFO()
        guard let handle = sndfile.openVirtual(&io, Int32(SFM_READ), &info, Unmanaged.passUnretained(self).toOpaque()) else {
            throw sndfile.failure(nil, operation: "open", path: path)
        }
        return (handle, info)
    }

    private static func of(_ user: UnsafeMutableRawPointer?) -> GrowingWAV? {
        user.map { Unmanaged<GrowingWAV>.fromOpaque($0).takeUnretainedValue() }
    }

    private func seek(_ offset: sf_count_t, whence: Int32) -> sf_count_t {
        let base: Int64 = switch whence {
        case SEEK_CUR: position
        case SEEK_END: length
        default: 0
        }
        let target = base + Int64(offset)
        guard target >= 0 else { return -1 }
        position = target
        return sf_count_t(target)
    }

    /// Up to `count` bytes from `position`, fewer at the view's end (or when the disk fails:
    /// libsndfile then sees the audio end there).
    private func read(into buffer: UnsafeMutableRawPointer?, count: sf_count_t) -> sf_count_t {
        guard let buffer, count > 0, position < length else { return 0 }
        let wanted = Int(min(Int64(count), length - position))
        var done = 0
        while done < wanted {
            let got = retryingOnInterrupt { pread(descriptor, buffer + done, wanted - done, off_t(position) + off_t(done)) }
            guard got > 0 else { break }
            done += got
        }
        for patch in patches {
            for (index, byte) in patch.bytes.enumerated() {
                let at = patch.offset + Int64(index) - position
                if at >= 0, at < Int64(done) { buffer.storeBytes(of: byte, toByteOffset: Int(at), as: UInt8.self) }
            }
        }
        position += Int64(done)
        return sf_count_t(done)
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}

extension SoundFileReader {
    /// Opens a file a recorder may still be writing, reading every whole frame on disk: a WAV
    /// through `GrowingWAV` when its header trails its audio; anything else as `init(url:)`
    /// does (a FLAC in progress states no length, and libsndfile reads it to its last whole
    /// frame). The file is never written.
    package convenience init(growing url: URL) throws {
        guard try RegularFile.check(url).sizeBytes > 0 else { throw SoundFileError.empty(path: url.path) }
        if let view = try GrowingWAV(url) {
            let sndfile = try LibSndFile.forFile("open", path: url.path)
            let (handle, info) = try view.openHandle(path: url.path, sndfile: sndfile)
            self.init(handle: handle, sndfile: sndfile, info: info, url: url, keeping: view)
        } else {
            try self.init(url: url)
        }
    }
}
