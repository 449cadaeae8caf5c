extension AnswerServer.Configuration {
    /// What is wrong with this configuration as `serve`'s options give it, in their words: the
    /// first of the port, the public URL, the longest answer, the largest upload, requests a
    /// minute, the trusted proxies, the timeouts and the connections that is out of bounds;
    /// nil: nothing. (The host is checked by `serve`, after its other options.)
    package var problem: String? {
        guard (0...65535).contains(port) else { return "--port must be 0 to 65535" }
        if let problem = Self.publicURLProblem(publicURL) { return problem }
        guard (5...3600).contains(maxAnswerSeconds) else { return "--max-answer-seconds must be 5 to 3600" }
        guard maxUploadBytes >= 1024 else { return "--max-upload-bytes must be at least 1024" }
        guard requestsPerMinute >= 1 else { return "--requests-per-minute must be at least 1" }
        for proxy in trustedProxies where !AnswerServer.isIPAddress(proxy) {
            return "--trusted-proxy needs the proxy's IP address, e.g. 127.0.0.1 (not \(proxy))"
        }
        for (name, value) in [("--idle-timeout", idleTimeout), ("--upload-timeout", uploadTimeout), ("--shutdown-timeout", shutdownTimeout)]
        where !(0.1...86_400).contains(value) {
            return "\(name) must be 0.1 to 86400 seconds"
        }
        guard (1...100_000).contains(maxConnections) else { return "--max-connections must be 1 to 100000" }
        return nil
    }

    /// What is wrong with a `--public-url` (one that is no http(s) URL), for `serve` and the
    /// commands that print links to it; nil: nothing, or none given.
    package static func publicURLProblem(_ publicURL: String?) -> String? {
        if let publicURL, !(publicURL.hasPrefix("http://") || publicURL.hasPrefix("https://")) || publicURL.count < 10 {
            return "--public-url must be an http(s) URL such as https://journal.example.org"
        }
        return nil
    }
}
