import VoiceJournalCCurl

/// The libcurl this program runs on: its version, TLS library and protocols.
package struct CurlVersion: Sendable, Equatable {
    /// e.g. "7.88.1".
    package var version: String
    /// e.g. "OpenSSL/3.0.19"; nil if built without TLS.
    package var ssl: String?
    /// e.g. ["dict", "file", "ftp", …, "http", "https", …].
    package var protocols: [String]

    /// What the linked libcurl reports about itself.
    package static var current: CurlVersion {
        guard let info = ccurl_version_info()?.pointee else {
            return CurlVersion(version: "unknown", ssl: nil, protocols: [])
        }
        var protocols: [String] = []
        if var cursor = info.protocols {
            while let name = cursor.pointee {
                protocols.append(String(cString: name))
                cursor += 1
            }
        }
        return CurlVersion(version: String(cString: info.version), ssl: info.ssl_version.map { String(cString: $0) },
                           protocols: protocols)
    }
}
