#if canImport(Glibc)
import Glibc
#endif

/// A C library opened with `dlopen` when first needed, instead of linked.
///
/// A linked library is loaded, relocated and bound at every start of the command, with every
/// library it depends on, whether the command uses it or not; one opened here costs only the
/// commands that call it. Opened `RTLD_NOW | RTLD_LOCAL` (every symbol bound at once, none
/// visible to other libraries) and never closed: the functions taken from it stay valid for
/// the life of the process.
public struct SharedLibrary: @unchecked Sendable {
    // @unchecked: the handle is never closed, and dlsym may be called from any thread.
    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by, e.g. "libsndfile.so.1".
    public let soname: String

    /// Opens `soname`: the versioned name of the ABI the caller's header describes (a library of
    /// another major version has other types and layouts).
    public init(_ soname: String) throws(SharedLibraryError) {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "not found"
            throw SharedLibraryError(step: "dlopen of \(soname) [\(why)]")
        }
        self.handle = handle
        self.soname = soname
    }

    /// The function `name`, as `type`: the `@convention(c)` type of its C declaration (a header's
    /// function-pointer typedef keeps the two the same).
    public func function<Function>(_ name: String, as type: Function.Type) throws(SharedLibraryError) -> Function {
        guard let symbol = dlsym(handle, name) else { throw SharedLibraryError(step: "dlsym of \(name) in \(soname)") }
        return unsafeBitCast(symbol, to: type)
    }
}

/// A library or one of its functions that could not be had: `step` says which, with the
/// loader's reason.
public struct SharedLibraryError: Error, Sendable, CustomStringConvertible {
    /// "dlopen of libcrypto.so.3 [libcrypto.so.3: cannot open shared object file: …]",
    /// "dlsym of EVP_sha256 in libcrypto.so.3".
    public let step: String

    public var description: String { step }
}
