import Foundation

/// The system's words for an `errno` value ("No space left on device"), in one place so every
/// failed system call reads the same way in an error line.
package enum SystemError {
    /// `strerror` of `code` (default: the current `errno`).
    package static func text(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }

    /// The system's reason for a failed Foundation file operation ("No such file or
    /// directory"), not Foundation's error dump: errno's text when the error carries one.
    package static func reason(of error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? any Error,
           (underlying as NSError).domain == NSPOSIXErrorDomain {
            return text(Int32((underlying as NSError).code))
        }
        if nsError.domain == NSPOSIXErrorDomain { return text(Int32(nsError.code)) }
        return nsError.localizedDescription
    }
}
