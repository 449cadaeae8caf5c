import CALSA
import CSndFile

/// Versions of the C libraries the Audio module runs on, as the libraries report them.
public enum AudioLibraryVersions {
    /// alsa-lib's version, e.g. "1.2.8".
    public static var alsa: String { String(cString: calsa_version()) }
    /// libsndfile's version string, e.g. "libsndfile-1.2.0".
    public static var sndfile: String { String(cString: csndfile_version()) }
}
