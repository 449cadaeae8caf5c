import VoiceJournalCSndFile
import VoiceJournalSystem

/// libsndfile, opened on first use rather than linked.
///
/// Linked, it and the seven codec libraries it loads (FLAC, Vorbis, Opus, Ogg, MPEG) were
/// loaded and bound at every start of the command, about 0.6 ms, `--version`, `search` and
/// playing a WAV (which maps the file's own samples) included; only the commands that decode
/// or write a file with it need them. `libsndfile.so.1` is the soname of the API the header
/// describes. Each function keeps the type of its C declaration (the header's typedefs).
struct LibSndFile: @unchecked Sendable {
    // @unchecked: C function pointers into a library that stays loaded, set once; libsndfile
    // may be called from any thread for different handles.
    let open: csndfile_open
    let openDescriptor: csndfile_open_fd
    let openVirtual: csndfile_open_virtual
    let close: csndfile_close
    let command: csndfile_command
    let error: csndfile_error
    let errorNumber: csndfile_error_number
    let strerror: csndfile_strerror
    let readShort: csndfile_readf_short
    let readFloat: csndfile_readf_float
    let writeShort: csndfile_writef_short
    let writeFloat: csndfile_writef_float
    let seek: csndfile_seek
    let setString: csndfile_set_string
    let versionString: csndfile_version_string

    /// The library's functions, or why they could not be had (loaded once, by the first caller).
    static let loaded = Result { () throws(SharedLibraryError) in try load() }

    /// The library, for `operation` on `path`; when it cannot be loaded, the error says so for
    /// that file (as any other reason it could not be read or written would).
    static func forFile(_ operation: String, path: String) throws(SoundFileError) -> LibSndFile {
        do {
            return try loaded.get()
        } catch {
            throw SoundFileError(operation: operation, path: path, reason: "libsndfile is not usable: \(error.step)")
        }
    }

    private static func load() throws(SharedLibraryError) -> LibSndFile {
        let library = try SharedLibrary("libsndfile.so.1")
        return LibSndFile(open: try library.function("sf_open", as: csndfile_open.self),
                          openDescriptor: try library.function("sf_open_fd", as: csndfile_open_fd.self),
                          openVirtual: try library.function("sf_open_virtual", as: csndfile_open_virtual.self),
                          close: try library.function("sf_close", as: csndfile_close.self),
                          command: try library.function("sf_command", as: csndfile_command.self),
                          error: try library.function("sf_error", as: csndfile_error.self),
                          errorNumber: try library.function("sf_error_number", as: csndfile_error_number.self),
                          strerror: try library.function("sf_strerror", as: csndfile_strerror.self),
                          readShort: try library.function("sf_readf_short", as: csndfile_readf_short.self),
                          readFloat: try library.function("sf_readf_float", as: csndfile_readf_float.self),
                          writeShort: try library.function("sf_writef_short", as: csndfile_writef_short.self),
                          writeFloat: try library.function("sf_writef_float", as: csndfile_writef_float.self),
                          seek: try library.function("sf_seek", as: csndfile_seek.self),
                          setString: try library.function("sf_set_string", as: csndfile_set_string.self),
                          versionString: try library.function("sf_version_string", as: csndfile_version_string.self))
    }
}

extension LibSndFile {
    /// libsndfile's reason for `handle`'s last failure (or the last open's, when nil), for
    /// `operation` on `path`.
    func failure(_ handle: OpaquePointer?, operation: String, path: String) -> SoundFileError {
        SoundFileError(operation: operation, path: path, reason: strerror(handle).map { String(cString: $0) } ?? "unknown error")
    }
}
