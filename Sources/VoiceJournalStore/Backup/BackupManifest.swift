import Foundation

/// What a backup holds, written as its last member (`manifest.json`): the database
/// snapshot and every audio file, each with its size and SHA-256, so a restore can tell a
/// whole backup from a damaged one before it changes anything.
package struct BackupManifest: Codable, Sendable, Equatable {
    package var format: String
    package var version: Int
    package var createdAt: Date
    /// The database snapshot (`voicejournal.sqlite`).
    package var database: Member
    /// Every audio file, named by its path relative to the data home.
    package var audio: [AudioFile]
    /// Recordings whose audio could not be read when the backup was taken: their rows are in
    /// the snapshot, their audio is not.
    package var missing: [MissingAudio]

    package static let formatName = "voicejournal-backup"
    package static let currentVersion = 1
    /// The member names of the database and of this manifest.
    package static let databaseName = "voicejournal.sqlite"
    package static let manifestName = "manifest.json"

    /// One file of the archive.
    package struct Member: Codable, Sendable, Equatable {
        package var name: String
        package var size: UInt64
        package var sha256: String
    }

    /// An audio file and the recordings whose audio it is (their `path` in the snapshot is
    /// `name`, relative to the data home).
    package struct AudioFile: Codable, Sendable, Equatable {
        package var name: String
        package var size: UInt64
        package var sha256: String
        package var recordings: [Int64]
    }

    /// A recording whose audio is not in the backup, and why.
    package struct MissingAudio: Codable, Sendable, Equatable {
        package var recording: Int64
        package var reason: String
    }
}

/// The names audio files have inside a backup and where they go when it is restored: a path
/// relative to the data home, under `audio/`, made only of ordinary parts.
enum BackupName {
    /// Audio kept outside the data home (a folder given to `transcribe`) is carried under here.
    static let elsewhereFolder = "audio/from-elsewhere"

    /// The name of the audio at `path` (absolute) in a backup of `home`: its own path when it
    /// lies under the home's `audio/` with a name a restore accepts, else a name under
    /// `audio/from-elsewhere/` made from the recording's id and the file's name.
    static func name(forAudioAt path: String, recording: Int64, home: DataHome) -> String {
        let audio = home.url.standardizedFileURL.path + "/audio/"
        if path.hasPrefix(audio), !path.contains("/from-elsewhere/") {
            let relative = "audio/" + path.dropFirst(audio.count)
            if isAcceptable(relative) { return relative }
        }
        let file = (path as NSString).lastPathComponent
        var kept = String(file.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._- ".unicodeScalars.contains(scalar)
                ? Character(scalar) : "_"
        })
        if kept.utf8.count > 80 {
            let suffix = (kept as NSString).pathExtension.utf8.count <= 10 ? (kept as NSString).pathExtension : ""
            var stem = suffix.isEmpty ? kept : (kept as NSString).deletingPathExtension
            while stem.utf8.count + suffix.utf8.count + 1 > 80 { stem.removeLast() }
            kept = suffix.isEmpty ? stem : stem + "." + suffix
        }
        return "\(elsewhereFolder)/\(recording)-\(kept)"
    }

    /// Whether `name` is one a restore places under the home: `audio/…`, each part plain
    /// (not empty, `.` or `..`, no control characters, not starting with a dot), short enough
    /// for a tar header.
    static func isAcceptable(_ name: String) -> Bool {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.first == "audio", name.utf8.count <= 250 else { return false }
        return parts.dropFirst().allSatisfy { part in
            !part.isEmpty && !part.hasPrefix(".") && part.utf8.count <= 100
                && !part.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\\" }
        }
    }
}
