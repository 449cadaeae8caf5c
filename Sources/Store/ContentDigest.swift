import CCrypto
import Foundation

/// SHA-256 of a file's bytes, read in fixed-size blocks so memory does not grow with the
/// file. The store keys recordings on it: the same audio is stored and uploaded once.
/// Computed by OpenSSL's libcrypto, which uses the CPU's SHA instructions: a batch of
/// thousands of files is hashed at disk speed. (Foundation on Linux has no CryptoKit.)
public enum ContentDigest {
    /// The lowercase hex SHA-256 of the file at `url`.
    public static func sha256(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hasher = try SHA256Context()
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty {
            hasher.update(block)
        }
        return hasher.finish()
    }

    /// The lowercase hex SHA-256 of `data`.
    public static func sha256(_ data: Data) -> String {
        guard let hasher = try? SHA256Context() else { return "" }
        hasher.update(data)
        return hasher.finish()
    }
}

/// One `EVP_MD_CTX` computing SHA-256, freed on deinit.
private final class SHA256Context {
    private let context: OpaquePointer

    init() throws {
        guard let context = EVP_MD_CTX_new() else { throw DigestError() }
        self.context = context
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw DigestError() }
    }

    deinit { EVP_MD_CTX_free(context) }

    func update(_ data: Data) {
        data.withUnsafeBytes { bytes in _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
    }

    func finish() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    struct DigestError: Error, CustomStringConvertible {
        var description: String { "OpenSSL could not set up SHA-256" }
    }
}
