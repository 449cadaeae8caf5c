import Audio
import Foundation
import Transcription

/// An audio file a scan found.
public struct AudioCandidate: Sendable, Equatable {
    public var url: URL
    public var sizeBytes: Int64
    /// What libsndfile learned, or nil for a container it does not read (m4a, webm, …)
    /// that the API accepts.
    public var info: AudioFileInfo?
}

/// A file a scan passed over, and why, in words for the user.
public struct SkippedFile: Sendable, Equatable {
    public var url: URL
    public var reason: String
    /// Named on the command line (rather than met inside a folder).
    public var wasNamed: Bool
}

/// What `transcribe PATH...` found.
public struct BatchScan: Sendable, Equatable {
    public var audio: [AudioCandidate] = []
    public var skipped: [SkippedFile] = []
}

/// Walks files and folders (recursively) and sorts audio from everything else: audio is
/// what libsndfile can open, or a file with an extension the API accepts in a container
/// libsndfile does not read. Hidden files and folders are passed over silently.
public enum BatchScanner {
    /// Containers libsndfile reads here: for these the content decides, so a truncated or
    /// mislabelled `.wav` is reported instead of uploaded.
    static let checkedByContent: Set<String> = ["wav", "flac"]

    /// Scans `paths` in order; a folder's files come sorted by path.
    public static func scan(_ paths: [String]) -> BatchScan {
        var scan = BatchScan()
        for path in paths {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else {
                scan.skipped.append(SkippedFile(url: url, reason: "no such file or folder", wasNamed: true))
                continue
            }
            if isFolder.boolValue {
                for file in files(in: url) { classify(file, named: false, into: &scan) }
            } else {
                classify(url, named: true, into: &scan)
            }
        }
        return scan
    }

    private static func files(in folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles]) else { return [] }
        var found: [URL] = []
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            found.append(url.standardizedFileURL)
        }
        return found.sorted { $0.path < $1.path }
    }

    static func classify(_ url: URL, named: Bool, into scan: inout BatchScan) {
        func skip(_ reason: String) { scan.skipped.append(SkippedFile(url: url, reason: reason, wasNamed: named)) }
        let size = ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.int64Value ?? 0
        guard FileManager.default.isReadableFile(atPath: url.path) else { return skip("cannot be read (permissions?)") }
        guard size > 0 else { return skip("empty file") }
        let ext = url.pathExtension.lowercased()
        do {
            let info = try SoundFileReader.probe(url)
            guard info.frames > 0 else { return skip("holds no audio (0 frames)") }
            scan.audio.append(AudioCandidate(url: url, sizeBytes: size, info: info))
        } catch {
            if checkedByContent.contains(ext) {
                let reason = (error as? SoundFileError)?.reason.trimmingCharacters(in: .whitespacesAndNewlines) ?? "\(error)"
                skip("not a readable \(ext.uppercased()) file (libsndfile: \(reason)); truncated or damaged?")
            } else if TranscriptionRequest.acceptedExtensions.contains(ext) {
                scan.audio.append(AudioCandidate(url: url, sizeBytes: size, info: nil))
            } else {
                skip("not audio (\(ext.isEmpty ? "no extension" : ".\(ext)") is not a format the API accepts, and libsndfile cannot read it)")
            }
        }
    }
}
