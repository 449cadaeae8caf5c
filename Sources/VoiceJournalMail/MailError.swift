import Foundation

/// Why a message cannot be composed or sent, worded for the user with what to do about it.
/// Everything that is wrong on this side (an address, a header, the settings) is one of these
/// before anything is sent; what a server did with a message is a `SendOutcome`, and
/// `notSent` carries one when the caller wants it as an error. No password appears in it.
public struct MailError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The class of failure. New kinds can be added without breaking callers.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case invalidAddress, invalidMessage, invalidConfiguration, notConfigured, libraryUnavailable, notSent
        }
        private let code: Code

        /// An address or display name that cannot go in a header: a line break, a control
        /// character, no `@`, characters an address may not hold.
        public static let invalidAddress = Kind(code: .invalidAddress)
        /// A subject or header value that cannot go in a header (a line break, a control character).
        public static let invalidMessage = Kind(code: .invalidMessage)
        /// The `[mail]` settings cannot work (a URL that is no smtp(s) URL, plain text to another
        /// machine, a username without the password variable).
        public static let invalidConfiguration = Kind(code: .invalidConfiguration)
        /// No `[mail]` table: mail is not set up.
        public static let notConfigured = Kind(code: .notConfigured)
        /// libcurl could not be loaded or set up.
        public static let libraryUnavailable = Kind(code: .libraryUnavailable)
        /// The message went to the server and was not taken: `outcome` says how.
        public static let notSent = Kind(code: .notSent)

        public var description: String { code.rawValue }
    }

    public let kind: Kind
    /// The whole sentence for the user.
    public let description: String
    /// With `notSent`: what the server did.
    public let outcome: SendOutcome?

    public init(kind: Kind, description: String, outcome: SendOutcome? = nil) {
        self.kind = kind
        self.description = description
        self.outcome = outcome
    }

    /// The error for an outcome that is not `sent` (nil for `sent`).
    public static func notSent(_ outcome: SendOutcome) -> MailError? {
        if case .sent = outcome { return nil }
        return MailError(kind: .notSent, description: outcome.description, outcome: outcome)
    }

    /// Whether the fault is in the settings or the machine (the login, TLS, the server out of
    /// reach), not in this one message: every other message would fail the same way.
    public var isConfiguration: Bool {
        switch kind {
        case .invalidConfiguration, .notConfigured, .libraryUnavailable: return true
        case .notSent:
            switch outcome {
            case .loginRefused, .tlsRefused, .deferred: return true
            default: return false
            }
        default: return false
        }
    }
}
