import Foundation

/// Ways to make writes fail without mounting anything, as root (CI) and as a user alike.
public enum DiskLimits {
    /// Takes write permission away from `folder` and everything in it (`chmod -R a-w`).
    /// Root ignores permissions, so pair it with `withoutPermissionOverride`.
    public static func makeReadOnly(_ folder: URL) throws {
        try runTool("chmod", ["-R", "a-w", folder.path])
    }

    /// Gives the owner write permission back (so the temporary folder can be removed).
    public static func makeWritable(_ folder: URL) throws {
        try runTool("chmod", ["-R", "u+w", folder.path])
    }

    /// A launcher under which permissions hold even for root: the capabilities that let root
    /// write anywhere (or change a file's mode without owning it) are dropped from the bounding set,
    /// so a root process runs like an ordinary owner. Empty when not root.
    public static var withoutPermissionOverride: [String] {
        geteuid() == 0 ? ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner,-linux_immutable", "--"] : []
    }

    /// A launcher that caps every file the command writes at `bytes` (RLIMIT_FSIZE), with
    /// SIGXFSZ ignored so a write past the cap fails with EFBIG like a write to a full disk
    /// instead of killing the process. Files already larger can be read and rewritten in place.
    public static func fileSizeLimit(_ bytes: Int) -> [String] {
        ["sh", "-c", "trap '' XFSZ; exec prlimit --fsize=\(bytes) -- \"$@\"", "sh"]
    }
}

/// A small tmpfs mounted for one test: a disk that really fills up. Mounting needs root (and
/// a container allowed to mount); `isAvailable` says whether this machine can.
public final class SmallDisk: @unchecked Sendable {
    // @unchecked: `url` is immutable; deinit runs once.
    public let url: URL

    /// Mounts a tmpfs of `bytes` at `url` (created).
    public init(at url: URL, bytes: Int) throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try runTool("mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", url.path])
        self.url = url
    }

    /// Whether tmpfs can be mounted here (root in a container that allows it).
    public static let isAvailable: Bool = {
        guard geteuid() == 0, let probe = try? TemporaryFolder("vj-mount-probe"),
              let disk = try? SmallDisk(at: probe.path("disk"), bytes: 65536) else { return false }
        withExtendedLifetime(disk) {}
        return true
    }()

    /// Writes zeros until the disk has no room left.
    public func fill() throws {
        try runTool("sh", ["-c", "dd if=/dev/zero of=\"$1\" bs=4096 2>/dev/null; true", "sh", url.appendingPathComponent("filler").path])
    }

    /// Makes room again.
    public func empty() throws {
        try FileManager.default.removeItem(at: url.appendingPathComponent("filler"))
    }

    deinit {
        _ = try? runTool("umount", ["-l", url.path])
        try? FileManager.default.removeItem(at: url)
    }
}
