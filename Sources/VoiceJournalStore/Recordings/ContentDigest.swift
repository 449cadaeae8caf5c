import Foundation

/// SHA-256 of a file's bytes, read in fixed-size blocks so memory does not grow with the
/// file. The store keys recordings on it: the same audio is stored and uploaded once.
/// Computed by OpenSSL's libcrypto, which uses the CPU's SHA instructions: a batch of
/// thousands of files is hashed at disk speed. (Foundation on Linux has no CryptoKit.)
package enum ContentDigest {
    /// The lowercase hex SHA-256 of the file at `url`. Throws rather than return a digest
    /// OpenSSL did not finish: a wrong digest would become a wrong dedupe key.
    package static func sha256(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hasher = try SHA256Context()
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            try hasher.update(block)
        }
        return try hasher.finish()
    }

    /// The lowercase hex SHA-256 of what `handle` reads to its end; each block is also handed
    /// to `block` (a copy made in the same pass, so what is copied is what was hashed).
    package static func sha256(of handle: FileHandle, each block: (Data) throws -> Void = { _ in }) throws -> String {
        let hasher = try SHA256Context()
        while let data = try handle.read(upToCount: 1 << 20), !data.isEmpty {
            try hasher.update(data)
            try block(data)
        }
        return try hasher.finish()
    }

    /// The lowercase hex SHA-256 of `data`.
    package static func sha256(_ data: Data) throws -> String {
        let hasher = try SHA256Context()
        try hasher.update(data)
        return try hasher.finish()
    }
}

/// One OpenSSL SHA-256 computation (an `EVP_MD_CTX`), freed on deinit. Every OpenSSL result
/// is checked.
final class SHA256Context {
    private let functions: LibCrypto
    private let context: OpaquePointer

    init() throws {
        let functions = try LibCrypto.loaded.get()
        guard let context = functions.newContext() else { throw DigestError(.unavailable, step: "EVP_MD_CTX_new") }
        guard functions.initialize(context, functions.sha256(), nil) == 1 else {
            functions.freeContext(context)
            throw DigestError(.unavailable, step: "EVP_DigestInit_ex")
        }
        (self.functions, self.context) = (functions, context)
    }

    deinit { functions.freeContext(context) }

    func update(_ data: Data) throws {
        let status = data.withUnsafeBytes { bytes in functions.update(context, bytes.baseAddress, bytes.count) }
        guard status == 1 else { throw DigestError(.hashing, step: "EVP_DigestUpdate") }
    }

    func finish() throws -> String {
        var digest = [UInt8](repeating: 0, count: 64)  // EVP_MAX_MD_SIZE
        var length: UInt32 = 0
        guard functions.finish(context, &digest, &length) == 1, length == 32 else {
            throw DigestError(.hashing, step: "EVP_DigestFinal_ex")
        }
        return digest.prefix(32).map { String(format: "%02x", $0) }.joined()
    }
}

/// OpenSSL failed while computing a SHA-256, with a kind callers decide by. Every kind is
/// failed work (exit 1) at the command line.
package struct DigestError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What could not be done. New kinds can be added without breaking callers.
    package struct Kind: Hashable, Sendable, CustomStringConvertible {
        private enum Code: String, Hashable, Sendable {
            case unavailable, hashing
        }
        private let code: Code

        /// SHA-256 could not be set up (no memory for the context, no such digest).
        package static let unavailable = Kind(code: .unavailable)
        /// Feeding the bytes or reading the digest out failed.
        package static let hashing = Kind(code: .hashing)

        package var description: String { code.rawValue }
    }

    package let kind: Kind
    /// The OpenSSL call that failed.
    package let step: String

    /// The error of `kind`, at the OpenSSL call `step`.
    package init(_ kind: Kind, step: String) {
        self.kind = kind
        self.step = step
    }

    package var description: String { "OpenSSL could not compute a SHA-256 (\(step) failed)" }
}
