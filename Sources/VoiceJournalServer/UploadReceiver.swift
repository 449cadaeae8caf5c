import Foundation
import Hummingbird
import NIOFileSystem

/// Takes the `audio` part of a multipart upload off the wire and onto disk as it arrives,
/// counting every byte of the request: past the cap the upload stops and its file goes,
/// so a large or endless request cannot fill the disk (or the memory).
struct UploadReceiver: Sendable {
    /// Where uploads are written while they arrive: `<home>/incoming`, private to the user.
    let folder: URL
    /// The most bytes a whole request may hold.
    let maxBytes: Int64

    /// A finished upload on disk, not yet checked as audio.
    struct Received: Sendable {
        let file: URL
        let sizeBytes: Int64
    }

    /// Why an upload was refused before its audio was looked at.
    enum Refusal: Error, Equatable {
        case tooLarge
        case malformed(String)
        case noAudio
        /// The link's other uploads under way hold all the room it is given.
        case busy
    }

    /// The name of the form field that carries the recording.
    static let audioField = "audio"

    /// Reads `body` to its end and writes the audio part to a new file in `folder`. On any
    /// failure (a refusal, a dropped connection) the file is removed before this returns.
    /// `reserved` bytes are already set aside for this request; past them, `reserve` is asked
    /// for each further piece (false: refused as `.busy`).
    func receive<Body: AsyncSequence>(_ body: Body, contentType: String?, reserved: Int64 = .max,
                                      reserve: (Int64) -> Bool = { _ in true }) async throws -> Received where Body.Element == ByteBuffer {
        guard let contentType, let boundary = MultipartReader.boundary(contentType: contentType) else {
            throw Refusal.malformed("the upload must be multipart/form-data with a boundary")
        }
        // File-system calls go through NIO's file system, which runs them on its thread pool.
        try await FileSystem.shared.createDirectory(at: FilePath(folder.path), withIntermediateDirectories: true,
                                                    permissions: [.ownerReadWriteExecute])
        var reader = MultipartReader(boundary: boundary)
        var total: Int64 = 0, written: Int64 = 0, allowed = reserved
        var inAudio = false, sawAudio = false, fileType: String?
        let partial = folder.appendingPathComponent("upload-\(UUID().uuidString).part")
        do {
            try await FileSystem.shared.withFileHandle(
                forWritingAt: FilePath(partial.path),
                options: .newFile(replaceExisting: false, permissions: [.ownerRead, .ownerWrite])
            ) { handle in
                try await handle.withBufferedWriter { writer in
                    var pieces = body.makeAsyncIterator()
                    while true {
                        let next: ByteBuffer?
                        do {
                            next = try await pieces.next()
                        } catch {
                            // Broken HTTP (a bad chunk size), or the connection closed or timed out mid-body.
                            throw Refusal.malformed("the request broke off or was not valid HTTP")
                        }
                        guard let buffer = next else { break }
                        total += Int64(buffer.readableBytes)
                        guard total <= maxBytes else { throw Refusal.tooLarge }
                        if total > allowed {
                            guard reserve(total - allowed) else { throw Refusal.busy }
                            allowed = total
                        }
                        let events: [MultipartReader.Event]
                        do {
                            events = try reader.feed(buffer.readableBytesView)
                        } catch let error as MultipartReader.Malformed {
                            throw Refusal.malformed(error.reason)
                        }
                        for event in events {
                            switch event {
                            case let .partStart(name, filename, type):
                                // Only the first audio part counts; a second one is ignored.
                                inAudio = name == Self.audioField && !sawAudio
                                if inAudio {
                                    sawAudio = true
                                    fileType = Self.fileExtension(contentType: type, filename: filename)
                                }
                            case .content(let bytes):
                                if inAudio { written += try await writer.write(contentsOf: bytes) }
                            case .partEnd:
                                inAudio = false
                            case .finished:
                                break
                            }
                        }
                    }
                }
            }
            guard reader.isFinished else { throw Refusal.malformed("the upload ended before its closing boundary") }
            guard sawAudio, written > 0 else { throw Refusal.noAudio }
            // The extension tells the decoder's probe what to expect; the content decides.
            let file = partial.deletingPathExtension().appendingPathExtension(fileType ?? "audio")
            try await FileSystem.shared.moveItem(at: FilePath(partial.path), to: FilePath(file.path))
            return Received(file: file, sizeBytes: written)
        } catch {
            _ = try? await FileSystem.shared.removeItem(at: FilePath(partial.path))
            throw error
        }
    }

    /// Removes what killed or interrupted uploads left in the folder (at start-up, before any
    /// upload of this process can be there). Blocking: called off the cooperative pool.
    func removeLeftovers() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix("upload-") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// A file extension for what browsers record: WebM/Opus (Chromium, Firefox), MP4/AAC
    /// (Safari), Ogg, WAV; else the uploaded file name's, if it is plain.
    static func fileExtension(contentType: String?, filename: String?) -> String? {
        let type = contentType.map { HeaderValue($0).value.lowercased() } ?? ""
        switch type {
        case "audio/webm", "video/webm": return "webm"
        case "audio/mp4", "video/mp4", "audio/x-m4a", "audio/aac": return "m4a"
        case "audio/ogg", "application/ogg": return "ogg"
        case "audio/wav", "audio/wave", "audio/x-wav": return "wav"
        case "audio/flac", "audio/x-flac": return "flac"
        case "audio/mpeg": return "mp3"
        default:
            guard let ext = filename.map({ URL(fileURLWithPath: $0).pathExtension.lowercased() }),
                  (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
            return ext
        }
    }
}
