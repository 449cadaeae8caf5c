import Foundation
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTranscription

/// Sends what the delivery queue holds, one message at a time: each claimed (marked
/// `sending`) before anything is sent, the moment the server accepts DATA marked before the
/// message's first byte, and the outcome stored. A transient failure (4xx, the network, no
/// answer before the data) waits with backoff; a 5xx fails for good with the server's reply
/// kept; a connection lost after the data began leaves it `unknown`, never resent by itself.
/// A refused login or certificate stops the run: every message would fail the same way, so
/// they stay queued for when the settings are fixed.
public struct DeliveryRunner: Sendable {
    public let store: JournalStore
    public let settings: MailSettings
    public let transport: SMTPTransport
    /// The queue's clock (`VOICEJOURNAL_NOW` in tests).
    public let now: @Sendable () -> Date
    /// The wait before the first retry; doubled each try after (`VOICEJOURNAL_MAIL_RETRY_BASE`
    /// seconds in tests).
    public var retryBase: TimeInterval = 60
    /// A retry due within this many seconds is waited for in the same run.
    public var patience: TimeInterval = 0

    private let owner = LeaseOwner.current()

    public init(store: JournalStore, settings: MailSettings, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.settings = settings
        transport = SMTPTransport(settings: settings)
        self.now = now
    }

    /// What a run did.
    public struct Report: Sendable {
        public var finished: [Delivery] = []
        /// What the server did with each try, by delivery (the last try's).
        public var outcomes: [Int64: SendOutcome] = [:]
        /// Why the run stopped before the queue was empty (the login or TLS was refused).
        public var stopped: String?
        public var sent: Int { finished.filter { $0.state == .sent }.count }
    }

    /// Sends the due deliveries (of `ids` only, when given) until none is due now.
    public func run(ids: Set<Int64>? = nil, abort: AbortSignal = AbortSignal()) async throws -> Report {
        var report = Report()
        let gone = Set(try store.deliveryOwners().filter { LeaseOwner($0)?.isGone ?? false })
        // The lease covers the whole exchange; renewed by nothing: one send is bounded by its deadline.
        let lease = settings.sendTimeout + 60
        let started = ProcessInfo.processInfo.systemUptime
        while true {
            guard let delivery = try store.claimDelivery(owner: owner.description, lease: lease, deadOwners: gone, ids: ids, now: now()) else {
                // A retry due soon is waited for (never longer than `patience` of real time:
                // a clock held still by VOICEJOURNAL_NOW never reaches it); later ones are left
                // for a later run.
                let waited = ProcessInfo.processInfo.systemUptime - started
                guard patience > waited, let due = try store.nextDeliveryDue(ids: ids) else { break }
                let wait = due.timeIntervalSince(now())
                guard wait <= patience - waited else { break }
                try await Task.sleep(nanoseconds: UInt64(max(0.01, wait) * 1_000_000_000))
                continue
            }
            if abort.isRaised {
                _ = try store.finishDelivery(id: delivery.id!, owner: owner.description, .released(note: "the run was stopped"), now: now())
                throw CancellationError()
            }
            let mail = ComposedMail(messageID: delivery.messageId, envelopeFrom: settings.from.address, recipients: [delivery.recipient],
                                    bytes: Data(delivery.message.utf8))
            let store = self.store, owner = self.owner.description, clock = now, id = delivery.id!
            let outcome = try await transport.send(mail, abort: abort) {
                // The server said 354: the message is about to begin. From here a sender that
                // dies leaves it unknown. A claim lost meanwhile sends nothing.
                (try? store.markDeliveryStarted(id: id, owner: owner, now: clock())) ?? false
            }
            report.outcomes[id] = outcome
            let attempt: DeliveryAttempt
            switch outcome {
            case .sent(let reply): attempt = .sent(code: reply.code, reply: reply.description)
            case .rejected(let reply): attempt = .refused(code: reply.code, reply: reply.description)
            case .deferred(let reply, let reason):
                let wait = retryBase * pow(2, Double(max(0, delivery.attempts - 1)))
                attempt = .deferred(code: reply?.code, reply: reply?.description ?? reason, retryAt: now().addingTimeInterval(wait))
            case .unknownOutcome(let reason): attempt = .unknown(reply: reason)
            case .loginRefused, .tlsRefused:
                _ = try store.finishDelivery(id: id, owner: owner, .released(note: outcome.description), now: now())
                report.stopped = outcome.description
                return report
            }
            if let finished = try store.finishDelivery(id: id, owner: owner, attempt, now: now()) { report.finished.append(finished) }
        }
        return report
    }
}
