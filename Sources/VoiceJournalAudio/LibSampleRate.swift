import VoiceJournalCSampleRate
import VoiceJournalSystem

/// libsamplerate, opened when a rate must first be converted rather than linked: a recording
/// at the device's rate (the usual case) never needs it, and linked it was loaded and bound at
/// every start of the command. `libsamplerate.so.0` is the soname of the API the header
/// describes; each function keeps the type of its C declaration (the header's typedefs).
struct LibSampleRate: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once; converters
    // are independent of each other.
    let new: csamplerate_new
    let delete: csamplerate_delete
    let process: csamplerate_process
    let strerror: csamplerate_strerror
    let isValidRatio: csamplerate_is_valid_ratio
    let version: csamplerate_get_version

    /// The library's functions, or why they could not be had (loaded once, by the first caller).
    static let loaded = Result { () throws(SharedLibraryError) in
        let library = try SharedLibrary("libsamplerate.so.0")
        return LibSampleRate(new: try library.function("src_new", as: csamplerate_new.self),
                             delete: try library.function("src_delete", as: csamplerate_delete.self),
                             process: try library.function("src_process", as: csamplerate_process.self),
                             strerror: try library.function("src_strerror", as: csamplerate_strerror.self),
                             isValidRatio: try library.function("src_is_valid_ratio", as: csamplerate_is_valid_ratio.self),
                             version: try library.function("src_get_version", as: csamplerate_get_version.self))
    }
}
