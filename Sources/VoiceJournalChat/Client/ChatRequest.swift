import Foundation

/// One chat completion to ask for: the messages, and the JSON schema the answer must follow.
public struct ChatRequest: Sendable, Equatable {
    /// One message of the conversation sent.
    public struct Message: Sendable, Equatable, Codable {
        public var role: String
        public var content: String
        public init(role: String, content: String) {
            self.role = role
            self.content = content
        }
        public static func system(_ content: String) -> Message { Message(role: "system", content: content) }
        public static func user(_ content: String) -> Message { Message(role: "user", content: content) }
        public static func assistant(_ content: String) -> Message { Message(role: "assistant", content: content) }
    }

    public var messages: [Message]
    /// The answer's JSON schema (nil: free text).
    public var schema: JSONValue?
    /// The schema's name, for OpenAI's `json_schema` form.
    public var schemaName: String
    /// The most tokens the answer may take.
    public var maxTokens: Int
    public var temperature: Double

    public init(messages: [Message], schema: JSONValue? = nil, schemaName: String = "answer", maxTokens: Int = 800,
                temperature: Double = 0.2) {
        self.messages = messages
        self.schema = schema
        self.schemaName = schemaName
        self.maxTokens = maxTokens
        self.temperature = temperature
    }

    /// The request's body for `model`, the schema in `form`.
    public func body(model: String, form: ChatEndpoint.SchemaForm) -> JSONValue {
        var body: [String: JSONValue] = [
            "model": .string(model),
            "messages": .array(messages.map { ["role": .string($0.role), "content": .string($0.content)] }),
            "max_tokens": .integer(maxTokens),
            "temperature": .number(temperature),
        ]
        if let schema {
            body["response_format"] = switch form {
            case .jsonSchema: ["type": "json_schema", "json_schema": ["name": .string(schemaName), "strict": true, "schema": schema]]
            case .jsonObject: ["type": "json_object", "schema": schema]
            }
        }
        return .object(body)
    }

    /// An estimate of the tokens the messages take: about four characters a token for
    /// English (OpenAI's rule of thumb), plus a few per message. Errs high for other text.
    public var estimatedTokens: Int {
        messages.reduce(3) { $0 + 4 + ($1.content.utf8.count + 3) / 4 }
    }
}

/// What a chat server answered.
public struct ChatAnswer: Sendable, Equatable {
    /// The assistant message's text, as the server sent it (not checked yet).
    public var content: String
    /// `stop`, or `length` when the answer was cut at `max_tokens` (nil: not said).
    public var finishReason: String?
    public var inputTokens: Int
    public var outputTokens: Int
    /// Whether the server reported the tokens (`usage`); else they are estimates.
    public var usageReported: Bool
    /// Seconds from sending to the whole answer.
    public var seconds: Double
    /// The schema form the server took.
    public var schemaForm: ChatEndpoint.SchemaForm?
    /// A streamed answer: seconds from sending to its first piece of text.
    public var firstTextSeconds: Double?
    /// A streamed answer that stopped before it was whole (the connection broke, the server
    /// went away): why. `content` is what arrived.
    public var incomplete: String?

    public init(content: String, finishReason: String?, inputTokens: Int, outputTokens: Int, usageReported: Bool,
                seconds: Double, schemaForm: ChatEndpoint.SchemaForm?, firstTextSeconds: Double? = nil, incomplete: String? = nil) {
        self.content = content
        self.finishReason = finishReason
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
        self.usageReported = usageReported
        self.seconds = seconds
        self.schemaForm = schemaForm
        self.firstTextSeconds = firstTextSeconds
        self.incomplete = incomplete
    }

    /// Reads a chat completion body; nil when it is not one.
    static func decode(_ body: Data, request: ChatRequest, seconds: Double, form: ChatEndpoint.SchemaForm?) -> ChatAnswer? {
        guard let json = JSONValue.parse(body), let choice = json["choices"]?.arrayValue?.first,
              let message = choice["message"], let content = message["content"]?.stringValue else { return nil }
        let usage = json["usage"]
        let input = usage?["prompt_tokens"]?.integerValue, output = usage?["completion_tokens"]?.integerValue
        return ChatAnswer(content: content, finishReason: choice["finish_reason"]?.stringValue,
                          inputTokens: max(0, input ?? request.estimatedTokens),
                          outputTokens: max(0, output ?? (content.utf8.count + 3) / 4),
                          usageReported: input != nil && output != nil, seconds: seconds, schemaForm: form)
    }
}
