/// Text from outside (a server's message, a model's words) made safe to show and store:
/// control characters become spaces, runs of whitespace one space, the length bounded.
/// What a model typed is data: it may be shown as the model's, never run or obeyed.
public enum ChatText {
    /// `text` on one line: control characters (escape sequences included) and line breaks
    /// turned into spaces, whitespace collapsed, at most `limit` characters (an ellipsis marks a cut).
    public static func oneLine(_ text: String, limit: Int) -> String {
        var result = ""
        var lastWasSpace = true
        for scalar in text.unicodeScalars {
            let isSpace = scalar.properties.isWhitespace || scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
                || scalar.properties.generalCategory == .format && scalar.value != 0x200D
            if isSpace {
                if !lastWasSpace { result.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        if result.hasSuffix(" ") { result.removeLast() }
        guard result.count > limit else { return result }
        return String(result.prefix(max(0, limit - 1))) + "…"
    }
}
