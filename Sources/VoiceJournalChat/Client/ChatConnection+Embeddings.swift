import Foundation
import VoiceJournalTranscription

extension ChatConnection {
    /// The most texts sent in one embeddings request.
    public static let embeddingsBatch = 32

    /// Vectors for `texts` from the endpoint's `POST /embeddings` (OpenAI's shape: `input` a
    /// list, `data[i].embedding`), in the order given, `model` the endpoint's. A server that
    /// has no such route answers 404 (`.endpointNotFound`); an answer that is not one vector
    /// per text, all of one length, is `.malformedResponse`.
    public func embed(_ texts: [String]) throws(ChatError) -> [[Float]] {
        guard !texts.isEmpty else { return [] }
        let body = Data(JSONValue.object(["model": .string(endpoint.model), "input": .array(texts.map { .string($0) })]).compactText.utf8)
        let transfer = Transfer(abort: abort, lowSpeedLimit: 1, lowSpeedTime: 60, answerDeadline: endpoint.answerTimeout)
        let (_, failure) = try post(body, transfer: transfer, accept: "application/json", url: endpoint.baseURL + "/embeddings")
        if let failure { throw classify(failure, transfer: transfer) }
        let status = easy.responseCode
        guard (200..<300).contains(status) else {
            throw ChatError.http(status: status, body: transfer.body, retryAfter: RetryPolicy.serverWait(headers: transfer.headers),
                                 redact: endpoint.redact, keyHint: keyHint)
        }
        guard let data = JSONValue.parse(transfer.body)?["data"]?.arrayValue, data.count == texts.count else {
            throw ChatError(kind: .malformedResponse, status: status, description: "the embeddings answer did not hold one vector per text")
        }
        var vectors = [[Float]](repeating: [], count: texts.count)
        for (place, item) in data.enumerated() {
            let index = item["index"]?.integerValue ?? place
            guard vectors.indices.contains(index), vectors[index].isEmpty,
                  let numbers = item["embedding"]?.arrayValue, !numbers.isEmpty, numbers.count <= 16_384 else {
                throw ChatError(kind: .malformedResponse, status: status, description: "the embeddings answer held a vector that is not one")
            }
            vectors[index] = numbers.compactMap { value -> Float? in
                switch value {
                case .number(let number) where number.isFinite: Float(number)
                case .integer(let number): Float(number)
                default: nil
                }
            }
            guard vectors[index].count == numbers.count else {
                throw ChatError(kind: .malformedResponse, status: status, description: "the embeddings answer held a vector that is not numbers")
            }
        }
        guard Set(vectors.map(\.count)).count == 1 else {
            throw ChatError(kind: .malformedResponse, status: status, description: "the embeddings answer's vectors differ in length")
        }
        return vectors
    }
}
