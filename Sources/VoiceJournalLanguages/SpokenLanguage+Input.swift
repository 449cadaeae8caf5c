/// Language codes as users type them (`--language de`) and as older rows hold them.
extension SpokenLanguage {
    /// The code a user asked for (`de`, `DE`), or nil when it is not one Whisper knows.
    public static func code(typed input: String) -> String? {
        let code = input.trimmingCharacters(in: .whitespaces).lowercased()
        return isKnown(code: code) ? code : nil
    }

    /// Why `input` is not a language code, in one sentence naming `option`, with the code
    /// meant when the input is a language's name ("german" → de); nil for a known code.
    public static func problem(with input: String, option: String = "--language") -> String? {
        guard code(typed: input) == nil else { return nil }
        let shown = String(input.unicodeScalars.prefix(40).map { $0.properties.generalCategory == .control ? "?" : Character($0) })
        let hint = code(for: input).map { " (for \(displayName(of: $0)) use \($0))" } ?? ""
        return "\(option) takes a language code Whisper knows (ISO-639-1, e.g. en, de, pl; also haw, yue), not '\(shown)'\(hint)"
    }

    /// Every way a transcript row may hold the language `code`: the code itself and the
    /// names servers answered before answers were kept as codes ("german", "castilian").
    public static func storedForms(of code: String) -> [String] {
        let code = code.lowercased()
        var forms = [code]
        if let name = names[code] { forms.append(name) }
        forms += otherNames.filter { $0.value == code }.map(\.key).sorted()
        return forms
    }
}
