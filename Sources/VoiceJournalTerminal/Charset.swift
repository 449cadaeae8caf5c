import Foundation

/// Which characters the output may use: Unicode block elements on a UTF-8 locale, plain
/// ASCII otherwise (a `C` locale, a serial console, a log file read with `less` in POSIX mode).
package enum Charset: Sendable, Equatable {
    case unicode
    case ascii

    /// The charset of the locale, by the POSIX rule: the first of `LC_ALL`, `LC_CTYPE` and
    /// `LANG` that is set decides; UTF-8 only when it names UTF-8. Nothing set means the
    /// `C` locale: ASCII.
    package static func detect(environment: [String: String] = ProcessInfo.processInfo.environment) -> Charset {
        let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
        // Plain Swift, not Foundation's string search: this runs at the start of commands
        // where Foundation's first NSString use was a measurable part of the start-up.
        let normalised = String(locale.lowercased().filter { $0 != "-" })
        return normalised.contains("utf8") ? .unicode : .ascii
    }
}
