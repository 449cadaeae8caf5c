/// Text from the journal or a person (a question, a name) made safe inside HTML — `serve`'s
/// pages and the HTML part of an email alike: markup characters become entities, so
/// `<script>` in a question is shown as those characters, never run.
package enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, and control characters other than
    /// tab and line breaks (which have no business on a page) replaced by U+FFFD.
    package static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            case _ where scalar.properties.generalCategory == .control: out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
