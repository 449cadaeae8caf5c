import Foundation
import VoiceJournalSystem

/// Text from the journal or a person (a question, a name) made safe inside a message's HTML
/// part: markup characters become entities, so `<script>` in a question arrives as the
/// words `<script>`, never as markup.
public enum MailHTML {
    /// `text` with `&`, `<`, `>`, `"` and `'` as entities, and control characters other than
    /// tab and line breaks replaced by U+FFFD.
    public static func escaped(_ text: String) -> String { HTMLText.escaped(text) }

    /// `text` as HTML paragraphs: each run of lines between blank lines one `<p>`, its line
    /// breaks `<br>`, every piece escaped.
    public static func paragraphs(_ text: String) -> String {
        let lines = QuotedPrintable.lines(of: text)
        var paragraphs: [[Substring]] = [[]]
        for line in lines {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                if !(paragraphs.last?.isEmpty ?? true) { paragraphs.append([]) }
            } else {
                paragraphs[paragraphs.count - 1].append(line)
            }
        }
        return paragraphs.filter { !$0.isEmpty }
            .map { "<p>" + $0.map { escaped(String($0)) }.joined(separator: "<br>\n") + "</p>" }
            .joined(separator: "\n")
    }

    /// A whole HTML document around `body` (already HTML), in UTF-8, with `title` (text) as its title.
    public static func document(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escaped(title))</title>
        </head>
        <body style="font-family: sans-serif; line-height: 1.5;">
        \(body)
        </body>
        </html>

        """
    }
}
