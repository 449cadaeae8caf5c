import VoiceJournalCALSA
import VoiceJournalCFFmpeg
import VoiceJournalCSampleRate
import VoiceJournalCSndFile

/// Versions of the C libraries the Audio module runs on, as the libraries report them.
package enum AudioLibraryVersions {
    /// alsa-lib's version, e.g. "1.2.8".
    package static var alsa: String { String(cString: calsa_version()) }
    /// libsndfile's version string, e.g. "libsndfile-1.2.0"; "not installed" when it cannot be loaded.
    package static var sndfile: String {
        guard let library = try? LibSndFile.loaded.get(), let version = library.versionString() else { return "not installed" }
        return String(cString: version)
    }
    /// libavformat's version (the FFmpeg library that opens containers), e.g. "59.27.100";
    /// "not installed" when FFmpeg's libraries cannot be loaded.
    package static var avformat: String {
        guard cffmpeg_load() else { return "not installed" }
        let version = cffmpeg_avformat_version()
        return "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }
    /// libsamplerate's version string, e.g. "libsamplerate-0.2.2 (c) 2002-2008 Erik de Castro Lopo".
    package static var samplerate: String {
        guard let library = try? LibSampleRate.loaded.get(), let version = library.version() else { return "not installed" }
        return String(cString: version)
    }
}
