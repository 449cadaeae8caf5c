import Foundation

/// An entry too long for the model's context, reflected in parts: consecutive runs of its
/// numbered sentences — numbered as in the whole entry, so a highlight cites the real sentence
/// and its time — each asked and checked as a short entry is; then one request "as a whole"
/// that is given the parts' checked reflections (never the transcript again), whose answer is
/// checked against the whole entry and is the one kept. Parts too many for one request are
/// first taken together in runs the same way, each run as a whole of its parts.
///
/// Whether a request fits is estimated (`ChatRequest.estimatedTokens`, with room for the
/// answer's `maxTokens`); the server has the last word: its context error halves the runs
/// and asks again, down to `floorBytes`, below which the reflection fails, saying why.
struct ReflectionParts {
    /// A checked reflection on sentences `first` to `last` of the entry.
    struct Digest {
        var first: Int
        var last: Int
        var reflection: Reflection
    }

    /// What came of a reflection: its outcome, and whether the entry was read in parts.
    struct Made {
        var outcome: ReflectionCheck.Outcome
        var inParts: Bool
    }

    /// Why a run did not become a digest: its answer broke the rules twice, or the context
    /// left no room for even a small run.
    struct Failed: Error {
        var reasons: [String]
    }

    let subject: ReflectionSubject
    let contextTokens: Int

    /// The least a run may send, in bytes of its lines (about 100 tokens: a few spoken
    /// sentences). A context too small for that is too small to reflect in.
    static let floorBytes = 400

    /// The first request and the parts the entry would be read in (1: at once), by the estimate.
    func plan() -> (first: ChatRequest, parts: Int) {
        if let whole = attempts({ ReflectionPrompt.request(for: $0) }).first { return (whole, 1) }
        let sizes = subject.sentences.map(Self.size)
        let budget = max(partRoom, Self.floorBytes)
        var parts = 0, next = 0, firstLength = 0
        while next < sizes.count {
            let length = Self.runLength(sizes[next...], budget: budget, atLeast: 1)
            if parts == 0 { firstLength = length }
            parts += 1
            next += length
        }
        return (ReflectionPrompt.request(for: part(subject.sentences[0..<firstLength]), part: true), parts)
    }

    /// Reflects on the subject: at once when it fits, else in parts and then as a whole.
    func reflect(in session: ReflectionSession) throws(ChatError) -> Made {
        var refusal: ChatError?
        let wholes = attempts { ReflectionPrompt.request(for: $0) }
        if let outcome = try first(of: wholes, in: session, refusal: &refusal) { return Made(outcome: outcome, inParts: false) }
        // The server refused what the estimate let through: its context is smaller than named.
        var budget = wholes.isEmpty ? partRoom : min(partRoom, subject.sentences.map(Self.size).reduce(0, +) / 2)
        let parts = try inRuns(subject.sentences, size: Self.size, atLeast: 1, budget: &budget, refusal: &refusal) { run, index throws(ChatError) in
            let part = self.part(run)
            let first = run.first?.number ?? 0, last = run.last?.number ?? 0
            switch try session.reflect(ReflectionPrompt.request(for: part, part: true), checkedAgainst: part) {
            case .valid(let reflection): return .success(Digest(first: first, last: last, reflection: reflection))
            case .invalid(let reasons): return .failure(Failed(reasons: reasons.map { "part \(index) (sentences \(first) to \(last)): \($0)" }))
            }
        }
        guard case .success(var level) = parts else { return Made(outcome: Self.outcome(parts), inParts: true) }
        var groupBudget = digestRoom
        while level.count > 1 {
            let current = level
            let wholes = Self.bytes(current, Self.size) <= groupBudget ? attempts { ReflectionPrompt.whole(of: current, subject: $0, stretch: false) } : []
            if let outcome = try first(of: wholes, in: session, refusal: &refusal) { return Made(outcome: outcome, inParts: true) }
            if !wholes.isEmpty { groupBudget = min(groupBudget, Self.bytes(current, Self.size) / 2) }
            // Too many parts for one request: runs of them (two at least) taken together first.
            let grouped = try inRuns(current, size: Self.size, atLeast: 2, budget: &groupBudget, refusal: &refusal) { run, _ throws(ChatError) in
                let first = run.first?.first ?? 0, last = run.last?.last ?? 0
                let stretch = self.stretch(first...last)
                let request = ReflectionPrompt.whole(of: Array(run), subject: stretch, stretch: true)
                switch try session.reflect(request, checkedAgainst: stretch) {
                case .valid(let reflection): return .success(Digest(first: first, last: last, reflection: reflection))
                case .invalid(let reasons):
                    return .failure(Failed(reasons: reasons.map { "sentences \(first) to \(last), taken together from their parts: \($0)" }))
                }
            }
            guard case .success(let next) = grouped else { return Made(outcome: Self.outcome(grouped), inParts: true) }
            level = next
        }
        // One run took in every part: it is the reflection on the whole entry.
        return Made(outcome: level.first.map { .valid($0.reflection) } ?? .invalid(["the entry has no sentences"]), inParts: true)
    }

    /// The requests to try for the whole subject, made by `request`: with the numbers about
    /// the journal, and without them (the part a reflection can do without) if the server
    /// refuses that; only those that fit by the estimate.
    private func attempts(_ request: (ReflectionSubject) -> ChatRequest) -> [ChatRequest] {
        var bare = subject
        bare.numbers = []
        let full = request(subject)
        if fits(full) { return subject.numbers.isEmpty ? [full] : [full, request(bare)] }
        let short = request(bare)
        return fits(short) ? [short] : []
    }

    /// The first of `requests` the server takes, its answer checked against the whole
    /// subject; nil when it refused them all for their length.
    private func first(of requests: [ChatRequest], in session: ReflectionSession,
                       refusal: inout ChatError?) throws(ChatError) -> ReflectionCheck.Outcome? {
        for request in requests {
            do throws(ChatError) {
                return try session.reflect(request, checkedAgainst: subject)
            } catch {
                guard error.kind == .contextTooLong else { throw error }
                refusal = error
            }
        }
        return nil
    }

    /// Makes a digest of each consecutive run of `items` (at most `budget` bytes, at least
    /// `atLeast` items), in order. A run the server refuses for its length is made again from
    /// half the budget; below the floor, or when a run's answer broke the rules twice, it fails.
    private func inRuns<Item>(_ items: [Item], size: (Item) -> Int, atLeast: Int, budget: inout Int, refusal: inout ChatError?,
                              _ digest: (ArraySlice<Item>, Int) throws(ChatError) -> Result<Digest, Failed>)
        throws(ChatError) -> Result<[Digest], Failed> {
        var done: [Digest] = []
        var next = 0
        while next < items.count {
            guard budget >= Self.floorBytes else { return .failure(Failed(reasons: [tooSmall(refusal)])) }
            let end = next + Self.runLength(items[next...].map(size)[...], budget: budget, atLeast: atLeast)
            do throws(ChatError) {
                switch try digest(items[next..<end], done.count + 1) {
                case .success(let made):
                    done.append(made)
                    next = end
                case .failure(let failed):
                    return .failure(failed)
                }
            } catch {
                guard error.kind == .contextTooLong else { throw error }
                refusal = error
                budget /= 2
            }
        }
        return .success(done)
    }

    /// How many of `sizes` the next run takes: runs of about even size (the rest split into as
    /// few runs as the budget allows), never over the budget unless `atLeast` needs it; a rest
    /// too small for a run of its own joins this one.
    static func runLength(_ sizes: ArraySlice<Int>, budget: Int, atLeast: Int) -> Int {
        let total = sizes.reduce(0, +)
        let runs = max(1, (total + budget - 1) / max(budget, 1))
        let target = total / runs
        var length = 0, bytes = 0
        for size in sizes {
            if length >= atLeast && (bytes + size > budget || bytes >= target) { break }
            length += 1
            bytes += size
        }
        return sizes.count - length < atLeast ? sizes.count : length
    }

    /// Whether `request` fits the context by the estimate, its answer's room included.
    func fits(_ request: ChatRequest) -> Bool { request.estimatedTokens + request.maxTokens <= contextTokens }

    /// Bytes of lines a request has room for beside `overhead` (the request without them):
    /// four a token, as the estimate counts, a tenth kept back for the estimate's error.
    private func room(besides overhead: ChatRequest) -> Int {
        max(0, (contextTokens - overhead.maxTokens - overhead.estimatedTokens) * 4 * 9 / 10)
    }

    /// Room for a part's sentences.
    private var partRoom: Int { room(besides: ReflectionPrompt.request(for: part([]), part: true)) }

    /// Room for the parts' lines in a request as a whole.
    private var digestRoom: Int { room(besides: ReflectionPrompt.whole(of: [], subject: part([]), stretch: true)) }

    /// The subject with only `sentences`, and no numbers about the journal (those go with the whole).
    private func part(_ sentences: ArraySlice<EntrySentence>) -> ReflectionSubject {
        var part = subject
        part.sentences = Array(sentences)
        part.numbers = []
        return part
    }

    /// The subject narrowed to sentences `numbers`: what a run of parts is checked against.
    private func stretch(_ numbers: ClosedRange<Int>) -> ReflectionSubject {
        part(subject.sentences.filter { numbers.contains($0.number) }[...])
    }

    static func size(_ sentence: EntrySentence) -> Int { ReflectionPrompt.sentenceLine(sentence).utf8.count + 1 }
    static func size(_ digest: Digest) -> Int { ReflectionPrompt.partLines(digest).joined(separator: "\n").utf8.count + 2 }
    static func bytes<Item>(_ items: [Item], _ size: (Item) -> Int) -> Int { items.reduce(0) { $0 + size($1) } }

    private static func outcome(_ result: Result<[Digest], Failed>) -> ReflectionCheck.Outcome {
        if case .failure(let failed) = result { return .invalid(failed.reasons) }
        return .invalid(["the entry has no sentences"])
    }

    private func tooSmall(_ refusal: ChatError?) -> String {
        let why = refusal.map { "the server refused even a few sentences at a time (\($0.description))" }
            ?? "a context of \(contextTokens) tokens leaves no room for the entry's sentences beside the answer"
        return "the model's context is too small to reflect on this entry: \(why); give it a larger one "
            + "(chat-server --context N, and [chat] context = N) or use a model with a larger one"
    }
}
