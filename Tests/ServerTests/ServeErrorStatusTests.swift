@testable import VoiceJournalServer
@testable import voicejournal
import Testing

/// `serve`'s start-up failures through the one exit-code mapping, in-process: every kind is a
/// configuration error (exit 3), reported in its own words.
@Suite struct ServeErrorStatusTests {
    static let errors: [ServeError] = [
        ServeError(.cannotListen, "cannot listen on 127.0.0.1:8080: address already in use"),
        ServeError(.unknownHost, "cannot listen on nowhere.invalid: no such address or host name (give an IP address of this machine, e.g. 127.0.0.1)"),
        ServeError(.notAnAddress, "cannot listen on 999.1.1.1: not an address this machine can listen on (give an IP address, e.g. 127.0.0.1)"),
    ]

    @Test(arguments: errors)
    func everyKindIsAConfigurationErrorInItsOwnWords(_ error: ServeError) throws {
        let report = try #require(ErrorReport.typed(error))
        #expect(report.status.rawValue == 3)
        #expect(report.message == error.description)
    }
}
