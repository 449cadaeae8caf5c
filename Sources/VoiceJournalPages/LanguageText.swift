import VoiceJournalLanguages

/// How languages read in listings and pages: `German (de)`.
package enum LanguageText {
    /// `German (de)` for a code (or a name an older row holds), nil for none.
    package static func named(_ stored: String?) -> String? {
        guard let stored, !stored.isEmpty else { return nil }
        guard let code = SpokenLanguage.code(for: stored) else { return stored }
        return "\(SpokenLanguage.displayName(of: code)) (\(code))"
    }

    /// A journal's or person's settings in words: `German (de), translated to English`,
    /// `detected`, `detected, translated to English`.
    package static func settings(language: String?, translate: Bool) -> String {
        (named(language) ?? "detected") + (translate ? ", translated to English" : "")
    }

    /// The short form a table column shows: `de`, `de +en`, `-`, `+en`.
    package static func column(language: String?, translate: Bool) -> String {
        let code = language.map { SpokenLanguage.code(for: $0) ?? $0 }
        switch (code, translate) {
        case (let code?, true): return code + " +en"
        case (let code?, false): return code
        case (nil, true): return "+en"
        case (nil, false): return "-"
        }
    }
}
