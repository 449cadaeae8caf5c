import Foundation

/// One OpenAI-compatible transcription server as the config file's `[[endpoint]]` table
/// describes it: where it is, which model it runs, how many uploads it takes at once, and
/// the name of the environment variable that holds its key (never the key itself).
package struct EndpointTable: Sendable, Equatable {
    /// The API base, e.g. `http://127.0.0.1:8000/v1`. It may hold credentials: never show it
    /// as it is.
    package var baseURL: String
    /// The model this server is asked for; nil: the run's model.
    package var model: String?
    /// The name of the environment variable holding this endpoint's key; nil: no key (a
    /// server on this machine needs none).
    package var apiKeyVariable: String?
    /// Uploads this server takes at once.
    package var concurrency: Int
    /// Higher numbers are used first; an endpoint with a lower number is overflow.
    package var priority: Int
    /// The line of the table's `[[endpoint]]` header in its file, for messages.
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
