#if canImport(Glibc)
import Glibc
#endif

/// Calls `call` again for as long as it fails with `EINTR`: a signal arrived during a
/// system call (a read, a write, a poll) that did nothing yet and can simply be made again.
/// `call` returns the system call's result, negative on failure with `errno` set; the first
/// other result is given back as it is, with `errno` as the call left it.
@inline(__always)
package func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
    while true {
        let result = call()
        if result < 0, errno == EINTR { continue }
        return result
    }
}
