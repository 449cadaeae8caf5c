/// Why a file is refused as audio before it is decoded or uploaded: it is not a regular
/// file, it cannot be reached or read, less of it is there than its header says, or it is
/// longer than what is taken or than its bytes could hold.
public struct AudioFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem; new kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable {
        let name: String
        /// Nothing at the path.
        public static let missing = Kind(name: "missing")
        /// A pipe, device, socket or folder where a file was expected.
        public static let notRegularFile = Kind(name: "notRegularFile")
        /// A symbolic link to nothing, or a loop of links.
        public static let brokenLink = Kind(name: "brokenLink")
        /// There, but not readable (permissions).
        public static let unreadable = Kind(name: "unreadable")
        /// The header promises more audio than the file holds.
        public static let truncated = Kind(name: "truncated")
        /// Longer than the caller takes (`DecodeLimit.maxSeconds`), by its declared or decoded length.
        public static let tooLong = Kind(name: "tooLong")
        /// More audio than its bytes could hold: damaged, or a decompression bomb.
        public static let implausibleLength = Kind(name: "implausibleLength")
    }

    public let kind: Kind
    public let path: String
    /// In the user's words, without the path: "not a regular file (a pipe)".
    public let reason: String

    public init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
