/// Why a file is refused as audio before it is decoded or uploaded: it is not a regular
/// file, it cannot be reached or read, less of it is there than its header says, or it is
/// longer than what is taken or than its bytes could hold.
package struct AudioFileProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of problem; new kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable {
        let name: String
        /// Nothing at the path.
        package static let missing = Kind(name: "missing")
        /// A pipe, device, socket or folder where a file was expected.
        package static let notRegularFile = Kind(name: "notRegularFile")
        /// A symbolic link to nothing, or a loop of links.
        package static let brokenLink = Kind(name: "brokenLink")
        /// There, but not readable (permissions).
        package static let unreadable = Kind(name: "unreadable")
        /// The header promises more audio than the file holds.
        package static let truncated = Kind(name: "truncated")
        /// Longer than the caller takes (`DecodeLimit.maxSeconds`), by its declared or decoded length.
        package static let tooLong = Kind(name: "tooLong")
        /// More audio than its bytes could hold: damaged, or a decompression bomb.
        package static let implausibleLength = Kind(name: "implausibleLength")
    }

    package let kind: Kind
    package let path: String
    /// In the user's words, without the path: "not a regular file (a pipe)".
    package let reason: String

    package init(_ kind: Kind, path: String, reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    package var description: String { "\(path): \(reason)" }
}
