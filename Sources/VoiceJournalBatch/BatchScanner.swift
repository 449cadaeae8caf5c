import VoiceJournalAudio
import Foundation
import VoiceJournalTranscription

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
    /// The file may well be audio to transcribe once it is finished (it was still being
    /// written): the run says it did not do all its work, so a script runs it again.
    public var comeBackLater = false
    /// Nothing was asked of it: neither its bytes nor its name say audio (a text file, a
    /// picture beside the recordings), or it is a second path to a file already given. Every
    /// other skipped file is audio the run could not transcribe, and makes it exit 1.
    public var isNotWork = false
}

/// A path a walk found (or the user named), not yet opened.
public struct WalkedFile: Sendable, Equatable {
    public var url: URL
    /// Named on the command line (rather than met inside a folder).
    public var named: Bool
}

/// What probing found: the audio, and what was passed over.
struct BatchScan: Sendable, Equatable {
    var audio: [AudioCandidate] = []
    var skipped: [SkippedFile] = []
}

/// Walks files and folders (recursively) and sorts audio from everything else: audio is a
/// regular file that libsndfile can open and that holds all the audio its header promises,
/// or a file with an extension the API accepts in a container libsndfile does not read.
/// Nothing but a regular file is ever opened (a pipe would block, a device never end).
/// Symbolic links are followed; everything passed over is reported with its reason, except
/// hidden files and folders, which are passed over silently.
public enum BatchScanner {
    /// Containers libsndfile reads here: for these the content decides, so a damaged or
    /// mislabelled `.wav` is reported instead of uploaded.
    static let checkedByContent: Set<String> = ["wav", "flac"]

    /// The files `paths` name and hold, without opening any: `paths` in order, a folder's
    /// files sorted by path, the same file reached twice inside folders (by a link, a hard
    /// link) once. What is not a file or folder at all (missing, a loop, the same file twice)
    /// is reported here; whether a file is audio is `classify`'s to say. Cheap, so a command
    /// can start on the first files while the rest are probed.
    public static func walk(_ paths: [String]) -> (files: [WalkedFile], skipped: [SkippedFile]) {
        var files: [WalkedFile] = []
        var skippedFiles: [SkippedFile] = []
        var walk = FolderWalk()
        var seen: [FileIdentity: URL] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: (path as NSString).expandingTildeInPath).standardizedFileURL
            if let status = try? FileStatus.of(url.path), status.kind == .folder {
                let (found, skipped) = walk.files(in: url, status: status)
                skippedFiles += skipped
                // Of two paths to one file the one without a link is kept, the other reported.
                var kept: [URL] = []
                for file in found.sorted(by: { ($0.throughLink ? 1 : 0, $0.url.path) < ($1.throughLink ? 1 : 0, $1.url.path) }) {
                    if let first = seen[file.status.identity] {
                        skippedFiles.append(SkippedFile(url: file.url, reason: "the same file as \(first.path)", wasNamed: false, isNotWork: true))
                        continue
                    }
                    seen[file.status.identity] = file.url
                    kept.append(file.url)
                }
                files += kept.sorted(by: { $0.path < $1.path }).map { WalkedFile(url: $0, named: false) }
            } else {
                // What the user names is taken as given, even twice: the queue stores the same audio once.
                if let status = try? FileStatus.of(url.path), seen[status.identity] == nil { seen[status.identity] = url }
                files.append(WalkedFile(url: url, named: true))
            }
        }
        return (files, skippedFiles)
    }

    /// Whether a walked file is audio: a candidate with what probing learned, or the reason it is not.
    public static func classify(_ file: WalkedFile) -> Classified {
        var scan = BatchScan()
        classify(file.url, named: file.named, into: &scan)
        if let candidate = scan.audio.first { return .audio(candidate) }
        return .passedOver(scan.skipped.first ?? SkippedFile(url: file.url, reason: "not audio", wasNamed: file.named))
    }

    /// What a file turned out to be.
    public enum Classified: Sendable, Equatable {
        case audio(AudioCandidate)
        case passedOver(SkippedFile)
    }

    static func classify(_ url: URL, named: Bool, into scan: inout BatchScan) {
        func skip(_ reason: String) { scan.skipped.append(SkippedFile(url: url, reason: reason, wasNamed: named)) }
        let size: Int64
        do {
            size = try RegularFile.check(url).sizeBytes
        } catch {
            return skip(error.kind == .missing && named ? "no such file or folder" : error.reason)
        }
        let ext = url.pathExtension.lowercased()
        let namedAsAudio = checkedByContent.contains(ext) || TranscriptionRequest.acceptedExtensions.contains(ext)
            || AudioIntegrity.decodedByFFmpeg.contains(ext)
        guard size > 0 else {
            skip("empty file")
            scan.skipped[scan.skipped.count - 1].isNotWork = !namedAsAudio && !named
            return
        }
        do {
            let info = try AudioIntegrity.probe(url)
            guard info.frames > 0 else { return skip("holds no audio (0 frames)") }
            scan.audio.append(AudioCandidate(url: url, sizeBytes: size, info: info))
        } catch let problem as AudioFileProblem {
            skip(problem.reason)
        } catch {
            if checkedByContent.contains(ext) {
                let soundError = error as? SoundFileError
                let reason = soundError?.reason.trimmingCharacters(in: .whitespacesAndNewlines) ?? "\(error)"
                // A `.notAudio` reason already names both libraries.
                skip("not a readable \(ext.uppercased()) file (\(soundError?.kind == .notAudio ? "" : "libsndfile: ")\(reason)); truncated or damaged?")
            } else if TranscriptionRequest.acceptedExtensions.contains(ext) || AudioIntegrity.decodedByFFmpeg.contains(ext) {
                // Neither libsndfile nor FFmpeg can decode it: whatever its name, it is not
                // audio the server could use, and it is never uploaded.
                let soundError = error as? SoundFileError
                let reason = (soundError?.reason ?? "\(error)").trimmingCharacters(in: .whitespacesAndNewlines)
                skip(soundError?.kind == .notAudio ? reason : "not audio or damaged (\(reason))")
            } else {
                skip("not audio (\(ext.isEmpty ? "no extension" : ".\(ext)") is not a format the API accepts, and neither libsndfile nor FFmpeg can read it)")
                scan.skipped[scan.skipped.count - 1].isNotWork = !named
            }
        }
    }
}
