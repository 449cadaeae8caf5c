import Foundation

/// Things a folder of recordings can hold besides audio files: links (good, dangling, looping,
/// to a device) and a named pipe. Reading any of the last ones would hang or never end.
public enum TrickyEntries {
    /// Makes in `folder`: `linked.wav` → `audio` (to be followed), `noise.mp3` → /dev/urandom,
    /// `ping.wav` ⇄ `pong.wav`, `dangling.wav` → gone.wav and the pipe `live.wav`. Returns
    /// each entry that must be passed over, by name, with the reason it must be given.
    @discardableResult
    public static func make(in folder: URL, linkingTo audio: URL) throws -> [String: String] {
        func link(_ name: String, to destination: String) throws {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path,
                                                       withDestinationPath: destination)
        }
        try link("linked.wav", to: audio.path)
        try link("noise.mp3", to: "/dev/urandom")
        try link("ping.wav", to: "pong.wav")
        try link("pong.wav", to: "ping.wav")
        try link("dangling.wav", to: "gone.wav")
        guard mkfifo(folder.appendingPathComponent("live.wav").path, 0o600) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        return [
            "noise.mp3": "not a regular file (a character device)",
            "ping.wav": "a loop of symbolic links",
            "pong.wav": "a loop of symbolic links",
            "dangling.wav": "a symbolic link to gone.wav, which does not exist",
            "live.wav": "not a regular file (a pipe)",
        ]
    }
}
