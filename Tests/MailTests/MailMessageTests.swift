import Foundation
import Testing
import VoiceJournalMail
import VoiceJournalTestSupport

/// Messages as composed, read back by Python's email package (policy.default): what a mail
/// client would show is what was given, and nothing given can add a header.
@Suite struct MailMessageTests {
    let zoe = try! MailAddress("zoe@example.org", displayName: "Zoë Łukasiewicz")
    let sam = try! MailAddress("sam.o'neil+journal@mail.example.net", displayName: "Sam")

    @Test func namesAndSubjectsOutsideASCIIArriveAsWrittenInEncodedWordsOfFoldedLines() throws {
        let subject = "Zoë Łukasiewicz asks: 你还记得我们在海边的那个夏天吗？ What do you remember of the summer by the sea, the house, the garden 🌊🏡"
        let message = try MailMessage(from: zoe, to: sam, subject: subject, text: "Hello", html: "<p>Hello</p>")
        let mail = message.composed(date: Date(timeIntervalSince1970: 1_709_643_787), timeZone: TimeZone(identifier: "Europe/Warsaw")!)
        let parsed = try ReceivedMail.parse(mail.bytes)

        #expect(parsed.headers["Subject"] == subject)
        #expect(parsed.addresses["From"] == [["Zoë Łukasiewicz", "zoe@example.org"]])
        #expect(parsed.addresses["To"] == [["Sam", "sam.o'neil+journal@mail.example.net"]])
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        // Sent as UTF-8 encoded words, folded: more than one line, none past 78 characters, all ASCII.
        let subjectLines = try #require(parsed.rawHeaders["Subject"])
        #expect(subjectLines.count > 2 && subjectLines.allSatisfy { $0.count <= 78 }, "\(subjectLines)")
        #expect(subjectLines.joined().contains("=?UTF-8?B?"))
        #expect(try #require(parsed.rawHeaders["From"]).joined().contains("=?UTF-8?B?"))
        #expect(mail.bytes.allSatisfy { $0 < 0x80 }, "the message is 7-bit")
        // Date in RFC 5322's form, in the time zone given; Message-ID on the sender's domain.
        #expect(parsed.rawHeaders["Date"] == ["Date: Tue, 05 Mar 2024 14:03:07 +0100"])
        #expect(parsed.date == "2024-03-05T14:03:07+01:00")
        #expect(mail.messageID.hasPrefix("<") && mail.messageID.hasSuffix("@example.org>") && mail.messageID.count > 30)
        #expect(parsed.headers["Message-ID"] == mail.messageID && parsed.headers["MIME-Version"] == "1.0")
        #expect(message.composed().messageID != mail.messageID, "each message gets its own id")
        #expect(parsed.headers["Auto-Submitted"] == nil)
    }

    @Test func plainSubjectsStayReadableFoldedAndExact() throws {
        let long = (1...30).map { "word\($0)" }.joined(separator: " ") + "  two  spaces"
        for subject in [long, "A plain question", "Not an =?UTF-8?B?ZW5jb2RlZA==?= word", "Doe, \"Jr\" \\ John"] {
            let name = "Doe, \"Jr\" \\ John"
            let from = try MailAddress("doe@example.org", displayName: name)
            let mail = try MailMessage(from: from, to: sam, subject: subject, text: "x").composed()
            let parsed = try ReceivedMail.parse(mail.bytes)
            #expect(parsed.headers["Subject"] == subject)
            #expect(parsed.addresses["From"] == [[name, "doe@example.org"]])
            #expect(try #require(parsed.rawHeaders["Subject"]).allSatisfy { $0.count <= 78 })
            #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        }
        // A plain ASCII subject is sent as it is, not encoded.
        let plain = try MailMessage(from: zoe, to: sam, subject: long, text: "x").composed().text
        #expect(plain.contains("Subject: word1 word2") && plain.contains(" two  spaces\r\n"))
    }

    @Test func lineBreaksAndControlCharactersInAddressesNamesAndSubjectsAreRefusedBeforeAnythingIsSent() throws {
        for address in ["zoe@example.org\r\nBcc: eve@example.org", "zoe@example.org\n", "zoe@exa\rmple.org", "zoe\u{0}@example.org",
                        "zoe", "zoe@", "@example.org", "zoe@@example.org", "zoe@example@org", "zoe smith@example.org",
                        "zoë@example.org", "zoe@exämple.org", "zoe..x@example.org", ".zoe@example.org", "zoe@-example.org",
                        "zoe@example..org", "<zoe@example.org>", "zoe@example.org, eve@example.org", "",
                        String(repeating: "a", count: 65) + "@example.org"] {
            #expect(throws: MailError.self, "\(address.debugDescription)") { try MailAddress(address) }
            do {
                _ = try MailAddress(address)
            } catch {
                #expect(error.kind == .invalidAddress)
                #expect(!error.description.contains("\r") && !error.description.contains("\n"), "one line: \(error.description)")
            }
        }
        for name in ["Zoë\r\nBcc: eve@example.org", "Zoë\nŁ", "Zoë\u{1B}[31m", "Zoë\u{7F}", "Zoë\u{85}", "Zoë\u{2028}", "Zoë\tŁ"] {
            #expect(throws: MailError.self, "\(name.debugDescription)") { try MailAddress("zoe@example.org", displayName: name) }
        }
        for subject in ["Hello\r\nBcc: eve@example.org", "Hello\n", "Hello\r", "Hello\u{7}", "Hello\u{0}"] {
            do {
                _ = try MailMessage(from: zoe, to: sam, subject: subject, text: "x")
                Issue.record("\(subject.debugDescription) was taken")
            } catch {
                #expect(error.kind == .invalidMessage && error.description.contains("subject"))
            }
        }
        // What is fine is taken: the forms an address may have, and names with any printable text.
        for address in ["a@b", "root@localhost", "o'neil+tag@mail.example.co.uk", "x_y-z.1@EXAMPLE.org", "#!$%&'*+-/=?^_`{|}~@example.org"] {
            #expect(throws: Never.self) { try MailAddress(address) }
        }
        #expect(try MailAddress("X@EXAMPLE.org").address == "X@example.org")
        #expect(try MailAddress("zoe@example.org", displayName: "  ").displayName == nil)
    }

    @Test func markupInTheHTMLPartArrivesAsText() throws {
        let question = "What did you think of <script>alert('hi')</script> & the \"b\" tag <b>?"
        let html = MailHTML.document(title: question, body: MailHTML.paragraphs("Question:\n\(question)\n\nThanks"))
        let mail = try MailMessage(from: zoe, to: sam, subject: "Q", text: question, html: html).composed()
        let parsed = try ReceivedMail.parse(mail.bytes)
        #expect(!parsed.htmlTags.contains("script") && !parsed.htmlTags.contains("b"), "\(parsed.htmlTags)")
        #expect(parsed.htmlTags.filter { $0 == "p" }.count == 2 && parsed.htmlTags.contains("br"))
        #expect(parsed.htmlText.contains(question), "\(parsed.htmlText)")
        #expect(parsed.plainText == question, "a text without a last line break comes back without one")
        #expect(MailHTML.escaped("<a href=\"x\">'&'</a>") == "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
    }

    @Test func bodiesAreMultipartAlternativeQuotedPrintableWithCRLFLinesAndDotsKept() throws {
        let longLine = String(repeating: "ż", count: 1500) + " end"
        let text = "First line\nSecond\r\nThird\rFourth\n.\n..\n.hidden\nFrom here on\ntrailing space   \n\(longLine)\nčeść = 100%\n"
        var message = try MailMessage(from: zoe, to: [sam, zoe], subject: "Body", text: text, html: "<p>\(MailHTML.escaped(text))</p>")
        message.autoSubmitted = true
        let mail = message.composed()
        let parsed = try ReceivedMail.parse(mail.bytes)

        #expect(parsed.contentType == "multipart/alternative")
        #expect(parsed.parts == ["multipart/alternative", "text/plain", "text/html"])
        #expect(parsed.encodings == ["quoted-printable", "quoted-printable"] && parsed.charsets == ["utf-8", "utf-8"])
        let normalised = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        #expect(parsed.plainText == normalised)
        #expect(parsed.allCRLF, "every line ends in CRLF: no bare CR or LF")
        #expect(parsed.longestLine <= 76, "quoted-printable lines (\(parsed.longestLine))")
        #expect(parsed.defects.isEmpty, "\(parsed.defects)")
        #expect(parsed.headers["Auto-Submitted"] == "auto-generated")
        #expect(parsed.addresses["To"]?.count == 2)
        // A lone dot is not doubled here: libcurl does that as it sends (SMTPSendTests checks it arrives whole).
        #expect(mail.text.contains("\r\n.\r\n..\r\n.hidden\r\n"))
        // A message without HTML is a single text/plain part.
        let plain = try ReceivedMail.parse(try MailMessage(from: zoe, to: sam, subject: "x", text: "só").composed().bytes)
        #expect(plain.parts == ["text/plain"] && plain.plainText == "só\n")
    }
}
