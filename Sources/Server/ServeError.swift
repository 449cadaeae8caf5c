import Foundation

/// The server could not start (the address is taken, or not this machine's), worded for the
/// user, with a kind callers decide by. Every kind is a configuration error (exit 3): the
/// machine cannot serve where it was asked to.
public struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case cannotListen, unknownHost, notAnAddress
        }
        private let code: Code

        /// Binding the socket failed (the port is taken, or not ours to use).
        public static let cannotListen = Kind(code: .cannotListen)
        /// `--host` is a name that resolves to nothing.
        public static let unknownHost = Kind(code: .unknownHost)
        /// `--host` is not an address this machine can listen on.
        public static let notAnAddress = Kind(code: .notAnAddress)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The whole sentence for the user.
    public let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
