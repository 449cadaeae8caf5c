import Foundation
import VoiceJournalStore
import VoiceJournalTranscription

extension Reflector {
    /// Asks for a reflection on `subject` (a week or a month with entries), checks the answer,
    /// asks once more with the reasons when it breaks a rule, and keeps what came of it with
    /// the numbers it was given: a valid reflection or a failed one with why. Blocking.
    public func reflect(on subject: PeriodSubject, in store: JournalStore, now: Date = Date(), calendar: Calendar = .current,
                        abort: AbortSignal = AbortSignal()) throws -> StoredReflection {
        guard !subject.entries.isEmpty else {
            throw ReflectionError("the \(subject.period.kind.rawValue) \(subject.period.label) has no entries to reflect on")
        }
        let connection = try ChatConnection(endpoint: endpoint, abort: abort, learned: learned, logger: logger)
        var usage = Usage()
        let (request, first) = try firstAnswer(for: subject, calendar: calendar, on: connection, abort: abort)
        usage.add(first)
        var outcome = PeriodCheck.check(first, for: subject)
        if case .invalid(let reasons) = outcome {
            logger.debug("period reflection broke the rules; asking once more", metadata: ["period": "\(subject.period.label)", "reasons": "\(reasons)"])
            let repaired = try send(ReflectionPrompt.repair(request, answer: first.content, reasons: reasons), on: connection, abort: abort)
            usage.add(repaired)
            outcome = PeriodCheck.check(repaired, for: subject)
        }
        var record = PeriodRecord(journal: subject.journal, period: subject.period, numbers: subject.numbers, reflection: nil)
        var stored = keptReflection(entryId: nil, periodKind: subject.period.kind == .week ? .week : .month, periodStart: subject.period.start,
                                       periodEnd: subject.period.end, promptVersion: PeriodPrompt.version, usage: usage, now: now)
        switch outcome {
        case .valid(let reflection):
            stored.status = .valid
            record.reflection = reflection
        case .invalid(let reasons):
            stored.reasons = reasons
        }
        stored.fields = record.encoded
        return try store.addReflection(stored)
    }

    /// The request `reflect(on:)` would send first: what `--dry-run` prints.
    public func request(on subject: PeriodSubject, calendar: Calendar = .current) -> ChatRequest {
        PeriodPrompt.request(for: subject, calendar: calendar)
    }

    /// The first request and its answer. A context too small for it is asked again with the
    /// entries listed without their words.
    private func firstAnswer(for subject: PeriodSubject, calendar: Calendar, on connection: ChatConnection,
                             abort: AbortSignal) throws -> (ChatRequest, ChatAnswer) {
        let request = PeriodPrompt.request(for: subject, calendar: calendar)
        do throws(ChatError) {
            return (request, try send(request, on: connection, abort: abort))
        } catch where error.kind == .contextTooLong {
            let smaller = PeriodPrompt.request(for: subject, texts: false, calendar: calendar)
            guard smaller != request else { throw error }
            return (smaller, try send(smaller, on: connection, abort: abort))
        }
    }
}
