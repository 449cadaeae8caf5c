import Foundation

/// One `[[endpoint]]` table of the config file, its keys as written and checked. Plain values
/// only (Settings depends on no other module of ours): a run turns it into the transcription
/// module's `EndpointConfig`, which is where what each value does is said.
package struct EndpointTable: Sendable, Equatable {
    /// `base_url`; it may hold credentials, so it is never shown as it is.
    package var baseURL: String
    /// `model`; nil when the table names none.
    package var model: String?
    /// `api_key_env`: a variable's name, never the key.
    package var apiKeyVariable: String?
    /// `concurrency`.
    package var concurrency: Int
    /// `priority`: higher first.
    package var priority: Int
    /// The line of the table's header, for messages.
    package var line: Int?

    /// Uploads at once when the table does not say.
    package static let defaultConcurrency = 4

    package init(baseURL: String, model: String? = nil, apiKeyVariable: String? = nil,
                concurrency: Int = EndpointTable.defaultConcurrency, priority: Int = 0, line: Int? = nil) {
        self.baseURL = baseURL
        self.model = model
        self.apiKeyVariable = apiKeyVariable
        self.concurrency = concurrency
        self.priority = priority
        self.line = line
    }

    /// The endpoints in the order a run prefers them: highest priority first, file order
    /// within one priority.
    package static func preferred(_ endpoints: [EndpointTable]) -> [EndpointTable] {
        endpoints.enumerated()
            .sorted { $0.element.priority != $1.element.priority ? $0.element.priority > $1.element.priority : $0.offset < $1.offset }
            .map(\.element)
    }

    /// Whether `name` can be an environment variable's name: letters, digits and `_`, not
    /// starting with a digit.
    package static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0 == "_" || CharacterSet.alphanumerics.contains($0)) }
    }
}
