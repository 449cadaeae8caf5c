import Foundation

/// The server could not start (the address is taken, or not this machine's), worded for the
/// user, with a kind callers decide by. Every kind is a configuration error (exit 3): the
/// machine cannot serve where it was asked to.
package struct ServeError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case cannotListen, unknownHost, notAnAddress
        }
        private let code: Code

        /// Binding the socket failed (the port is taken, or not ours to use).
        package static let cannotListen = Kind(code: .cannotListen)
        /// `--host` is a name that resolves to nothing.
        package static let unknownHost = Kind(code: .unknownHost)
        /// `--host` is not an address this machine can listen on.
        package static let notAnAddress = Kind(code: .notAnAddress)

        package var description: String { code.rawValue }
    }

    package let kind: Kind
    /// The whole sentence for the user.
    package let description: String

    /// An error of `kind`; `description` is the sentence the user reads.
    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
