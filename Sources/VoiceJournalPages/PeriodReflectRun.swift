import Foundation
import VoiceJournalChat
import VoiceJournalSettings
import VoiceJournalStore
import VoiceJournalSystem
import VoiceJournalTerminal

/// `voicejournal reflect --week [DATE]` and `--month [YYYY-MM]`: the period's numbers,
/// counted by SQL, and a model's narrative on its entries, checked and kept.
package struct PeriodReflectRun: Sendable {
    package var kind: JournalPeriod.Kind
    /// The command line's day (a week) or month; nil: the current one.
    package var when: String?
    /// Only this journal's entries; nil: every journal's.
    package var journal: String?
    package var again = false
    package var dryRun = false
    package var json = false
    /// Whose days and weeks: the user's time zone.
    package var calendar: Calendar = .current

    package init(kind: JournalPeriod.Kind, when: String?, journal: String?) {
        self.kind = kind
        self.when = when
        self.journal = journal
    }

    /// The period the command line names, as of `now`: a week by any day of it (a date,
    /// `today`, `7d` back…), `this` or `last`; a month as `YYYY-MM`, a day of it, `this` or
    /// `last`. Anything else is a usage error that says what to give.
    package func period(now: Date) throws -> JournalPeriod {
        let text = when?.trimmingCharacters(in: .whitespaces) ?? ""
        let current = kind == .week ? JournalPeriod.week(containing: now, calendar: calendar) : .month(containing: now, calendar: calendar)
        switch text.lowercased() {
        case "", "this": return current
        case "last": return current.previous(calendar: calendar)
        default: break
        }
        if kind == .month, let match = text.wholeMatch(of: /([0-9]{4})-([0-9]{2})/) {
            if let year = Int(match.1), let month = Int(match.2), let period = JournalPeriod.month(year: year, month: month, calendar: calendar) {
                return period
            }
        } else if let day = PointInTime(text, now: now, calendar: calendar) {
            return kind == .week ? .week(containing: day.date, calendar: calendar) : .month(containing: day.date, calendar: calendar)
        }
        let shown = TerminalText.escaped(when ?? "")
        throw StoreError.invalidInput(kind == .week
            ? "--week takes a day of the week: YYYY-MM-DD, today, this or last (the week before this one), not \"\(shown)\""
            : "--month takes a month: YYYY-MM, this or last (the month before this one), not \"\(shown)\"")
    }

    /// Runs it and returns what goes on stdout. A period without entries is said in one line
    /// (exit 0) and nothing is sent; the chat endpoint is needed only to send (or show what
    /// would be sent).
    package func run(settings: Settings, store: JournalStore, environment: [String: String], now: Date) async throws -> ReflectRun.Output {
        let period = try period(now: now)
        let subject = try await onThread { [journal, calendar] in try store.periodSubject(period, journal: journal, calendar: calendar) }
        if subject.entries.isEmpty {
            let title = PeriodFacts.title(period, journal: subject.journal, calendar: calendar)
            if json {
                return ReflectRun.Output(text: try JSONText.encode(PeriodReflectionPage.Empty(
                    period: PeriodReflectionPage.period(period), journal: subject.journal, numbers: subject.numbers)))
            }
            return ReflectRun.Output(text: "No entries in the \(TerminalText.escaped(title)): nothing to reflect on, nothing was sent.")
        }
        let latest = again ? nil : try await onThread { [journal = subject.journal] in
            try store.latestPeriodReflection(kind: period.kind == .week ? .week : .month, start: period.start, journal: journal)
        }
        if !dryRun, let latest { return try output(PeriodReflectionPage(latest, subject: subject, calendar: calendar), kept: true) }
        // Only the pool's preferred server is asked: an entry's reflection fails over to the next, a period's does not.
        let reflector = try settings.reflectors(environment: environment)[0]
        if dryRun {
            let request = reflector.request(on: subject, calendar: calendar)
            let text = ReflectRun.dryRunText(reflector.body(of: request), request: request, parts: 1, endpoint: reflector.endpoint, json: json)
            if json { return ReflectRun.Output(text: text) }
            let numbers = PeriodReflectionPage.numberLines(subject.numbers, subject: subject, calendar: calendar)
            return ReflectRun.Output(text: (numbers + ["", text]).joined(separator: "\n"))
        }
        let made = try await onThread { [calendar] in try reflector.reflect(on: subject, in: store, now: now, calendar: calendar) }
        return try output(PeriodReflectionPage(made, subject: subject, calendar: calendar), kept: false)
    }

    private func output(_ page: PeriodReflectionPage, kept: Bool) throws -> ReflectRun.Output {
        let failed = page.reflection == nil
        if json { return ReflectRun.Output(text: try JSONText.encode(page), failed: failed) }
        var lines = page.lines()
        if kept { lines.append("(kept from before; nothing was sent: --again asks for a new one)") }
        return ReflectRun.Output(text: lines.joined(separator: "\n"), failed: failed)
    }
}
