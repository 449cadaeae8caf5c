import Testing
import VoiceJournalTestSupport
import VoiceJournalTranscription

@Suite(.onTestThreads) struct CurlVersionTests {
    @Test func libcurlReportsItsVersionTLSAndHTTPProtocols() throws {
        let declared = try runTool("pkg-config", ["--modversion", "libcurl"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let curl = CurlVersion.current
        #expect(curl.version == declared)
        #expect(curl.protocols.contains("http") && curl.protocols.contains("https"))
        #expect(curl.ssl?.hasPrefix("OpenSSL/") == true)
    }
}
