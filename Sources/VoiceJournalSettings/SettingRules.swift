import Foundation

/// What settings are checked against and fall back on that the rest of the program owns: its
/// defaults, the upload codecs and limits, which languages and URLs it takes. The program gives
/// them, so settings are resolved here without knowing how a run, a capture or a server uses them.
package struct SettingRules: Sendable {
    /// The journal a command uses when none is named.
    package var defaultJournal: String
    /// The model asked for when none is named.
    package var defaultModel: String
    /// The transcription server when none is named.
    package var defaultBaseURL: String
    /// The upload codecs' names, in the order messages list them.
    package var uploadCodecs: [String]
    package var defaultUploadCodec: String
    package var defaultMaxChunkSeconds: Double
    package var defaultMaxRequestBytes: Int64
    package var maxChunkSecondsRange: ClosedRange<Double>
    package var maxRequestBytesRange: ClosedRange<Int64>
    /// Whether a text is an http(s) URL with a host.
    package var isHTTPURL: @Sendable (String) -> Bool
    /// Whether a text is a language code the transcription server knows.
    package var isLanguageCode: @Sendable (String) -> Bool
    /// The code and name of the language a text names, for a message saying which code was meant.
    package var languageMeant: @Sendable (String) -> (code: String, name: String)?
    /// Why a text is not an address mail can be sent from; nil when it is one.
    package var mailAddressProblem: @Sendable (String) -> String?
    /// Why a text cannot be `[mail]`'s url (the second argument: whether `allow_plain_loopback`
    /// is on); nil when it can.
    package var mailURLProblem: @Sendable (String, Bool) -> String?

    package init(defaultJournal: String, defaultModel: String, defaultBaseURL: String, uploadCodecs: [String],
                defaultUploadCodec: String, defaultMaxChunkSeconds: Double, defaultMaxRequestBytes: Int64,
                maxChunkSecondsRange: ClosedRange<Double>, maxRequestBytesRange: ClosedRange<Int64>,
                isHTTPURL: @escaping @Sendable (String) -> Bool, isLanguageCode: @escaping @Sendable (String) -> Bool,
                languageMeant: @escaping @Sendable (String) -> (code: String, name: String)?,
                mailAddressProblem: @escaping @Sendable (String) -> String? = { _ in nil },
                mailURLProblem: @escaping @Sendable (String, Bool) -> String? = { _, _ in nil }) {
        self.defaultJournal = defaultJournal
        self.defaultModel = defaultModel
        self.defaultBaseURL = defaultBaseURL
        self.uploadCodecs = uploadCodecs
        self.defaultUploadCodec = defaultUploadCodec
        self.defaultMaxChunkSeconds = defaultMaxChunkSeconds
        self.defaultMaxRequestBytes = defaultMaxRequestBytes
        self.maxChunkSecondsRange = maxChunkSecondsRange
        self.maxRequestBytesRange = maxRequestBytesRange
        self.isHTTPURL = isHTTPURL
        self.isLanguageCode = isLanguageCode
        self.languageMeant = languageMeant
        self.mailAddressProblem = mailAddressProblem
        self.mailURLProblem = mailURLProblem
    }

    /// Whether `text` can be the base of answer links: an http(s) URL with a host, of at most
    /// `Settings.longestPublicURL` bytes, without spaces or control characters.
    package func isPublicURL(_ text: String) -> Bool {
        text.utf8.count <= Settings.longestPublicURL
            && !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
            && isHTTPURL(text)
    }
}
