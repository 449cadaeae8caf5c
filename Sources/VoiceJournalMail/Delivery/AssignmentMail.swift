import Foundation

/// The emails an assignment sends: its question with the link that answers it, and a
/// reminder of it. Plain text and HTML (the question escaped: it is the user's words, and a
/// name or question holding `<script>` arrives as text); the link exactly as `assignment
/// link` prints it.
public enum AssignmentMail {
    /// Why `link` cannot go to a phone: the answer page records from the microphone, which a
    /// browser allows only on https (or on this machine). Nil when it can.
    public static func linkProblem(_ link: String) -> String? {
        guard let url = URL(string: link), let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return "the link \(link) is not a URL; set public_url (or --public-url) to where `serve` is reached"
        }
        if scheme == "https" { return nil }
        if scheme == "http", host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.") { return nil }
        return "the link \(link) is plain http: a phone's browser records from the microphone only on an https page. "
            + "Put `serve` behind https (a reverse proxy with a certificate) and set public_url (or --public-url) to its https address"
    }

    /// The question's email to `to`, asked by `asker`.
    public static func question(_ question: String, link: String, from: MailAddress, to: MailAddress, asker: String,
                                reminder: Int? = nil) throws(MailError) -> MailMessage {
        let subject = (reminder == nil ? "" : "Reminder: ") + "\(asker) asks: \(Self.shortened(question))"
        let opening = reminder == nil
            ? "\(asker) would like to hear your answer to a question, in your own voice:"
            : "A gentle reminder: \(asker) would still love to hear your answer to this question:"
        let text = """
            Hello \(to.displayName ?? ""),

            \(opening)

                \(question)

            Open this link on your phone or computer and press record:
            \(link)

            The link is yours alone; please do not share it.
            """
        let html = MailHTML.document(title: subject, body: """
            <p>Hello \(MailHTML.escaped(to.displayName ?? "")),</p>
            <p>\(MailHTML.escaped(opening))</p>
            <blockquote><p>\(MailHTML.escaped(question))</p></blockquote>
            <p>Open this link on your phone or computer and press record:<br><a href="\(MailHTML.escaped(link))">\(MailHTML.escaped(link))</a></p>
            <p>The link is yours alone; please do not share it.</p>
            """)
        var message = try MailMessage(from: from, to: to, subject: subject, text: text, html: html)
        message.autoSubmitted = reminder != nil
        return message
    }

    /// A subject holds the question's first line, at most 120 characters.
    public static func shortened(_ question: String) -> String {
        let line = question.split(whereSeparator: \.isNewline).first.map(String.init) ?? question
        return line.count > 120 ? String(line.prefix(119)) + "…" : line
    }
}
