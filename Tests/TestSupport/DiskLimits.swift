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
