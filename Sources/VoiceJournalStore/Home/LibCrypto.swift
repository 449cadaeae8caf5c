import VoiceJournalSystem

/// OpenSSL's libcrypto, for SHA-256 only, loaded on first use rather than linked.
///
/// libcrypto uses the CPU's SHA instructions, so a batch of thousands of files is hashed at
/// disk speed; but linked, its 3,000-odd symbol bindings were made at every start of the
/// command (about 0.7 ms: `play`, `search`, `--version` included), while only the commands that
/// store a file hash one. `libcrypto.so.3` is OpenSSL 3's soname, whose functions these are.
struct LibCrypto: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once; calling them
    // from any thread is what OpenSSL 3 allows for separate contexts.
    let newContext: @convention(c) () -> OpaquePointer?
    let freeContext: @convention(c) (OpaquePointer?) -> Void
    let sha256: @convention(c) () -> OpaquePointer?
    let initialize: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32
    let update: @convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32
    let finish: @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<UInt32>?) -> Int32

    /// The library's functions, or why they could not be had (loaded once, by the first caller).
    static let loaded = Result { () throws(DigestError) in try load() }

    private static func load() throws(DigestError) -> LibCrypto {
        do {
            let library = try SharedLibrary("libcrypto.so.3")
            return LibCrypto(newContext: try library.function("EVP_MD_CTX_new", as: (@convention(c) () -> OpaquePointer?).self),
                             freeContext: try library.function("EVP_MD_CTX_free", as: (@convention(c) (OpaquePointer?) -> Void).self),
                             sha256: try library.function("EVP_sha256", as: (@convention(c) () -> OpaquePointer?).self),
                             initialize: try library.function("EVP_DigestInit_ex",
                                                              as: (@convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Int32).self),
                             update: try library.function("EVP_DigestUpdate",
                                                          as: (@convention(c) (OpaquePointer?, UnsafeRawPointer?, Int) -> Int32).self),
                             finish: try library.function("EVP_DigestFinal_ex",
                                                          as: (@convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt8>?,
                                                                               UnsafeMutablePointer<UInt32>?) -> Int32).self))
        } catch {
            throw DigestError(.unavailable, step: error.step)
        }
    }
}
