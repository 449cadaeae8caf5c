import VoiceJournalSystem

/// The HTML `serve` sends: the answer page, the thank-you page and the one page for every
/// link that does not work. Journal text (the question, the asker's name) is escaped; the
/// script and style are separate files (`PageAssets`), so the CSP allows no inline code.
enum AnswerPages {
    /// The page for an assignment that waits for its answer.
    static func answer(question: String, askedBy: String?, uploadPath: String, maxSeconds: Int) -> String {
        let asker = askedBy.map { "<p class=\"asker\">\(HTMLText.escaped($0)) asks:</p>" } ?? "<p class=\"asker\">A question for you:</p>"
        return shell(title: "A question for you", body: """
            <main id="answer" data-upload="\(HTMLText.escaped(uploadPath))" data-max-seconds="\(maxSeconds)">
              <header>
                \(asker)
                <h1 class="question">\(HTMLText.escaped(question))</h1>
              </header>
              <noscript>
                <p class="notice">To record your answer, this page needs JavaScript and your permission to use the microphone. Please turn JavaScript on and open the link again.</p>
              </noscript>
              <p id="insecure" class="notice" hidden>This link needs a secure (https) address: browsers let a page use the microphone only over https. Please ask the person who sent it for a link that starts with https.</p>
              <p id="unsupported" class="notice" hidden>This browser cannot record here. Please open the link in a recent Chrome, Firefox or Safari; on a phone, use its usual browser.</p>
              <section id="recorder" aria-labelledby="recorder-heading" hidden>
                <h2 id="recorder-heading" class="visually-hidden">Your answer</h2>
                <p id="status" role="status" aria-live="polite">Tap Record and speak your answer. You have up to \(clock(maxSeconds)).</p>
                <div class="level" aria-hidden="true"><div id="level-bar" class="level-bar"></div></div>
                <p class="time"><span id="elapsed">0:00</span> <span class="of">of</span> <span id="limit">\(clock(maxSeconds))</span></p>
                <button id="record" class="record" type="button">Record</button>
                <div id="review" hidden>
                  <audio id="playback" controls preload="auto"></audio>
                  <div class="actions">
                    <button id="again" class="secondary" type="button">Record again</button>
                    <button id="send" class="primary" type="button">Send</button>
                  </div>
                </div>
                <div id="sending" hidden>
                  <label for="progress">Sending your answer…</label>
                  <progress id="progress" max="100" value="0">0%</progress>
                </div>
              </section>
              <section id="thanks" class="thanks" tabindex="-1" hidden>
                <h2>Thank you!</h2>
                <p>Your answer was sent. You can close this page.</p>
              </section>
            </main>
            """)
    }

    /// What the link shows once it is answered.
    static func thanks(question: String) -> String {
        shell(title: "Thank you", body: """
            <main class="done">
              <h1>Thank you!</h1>
              <p>Your answer to this question has arrived:</p>
              <p class="question-small">\(HTMLText.escaped(question))</p>
              <p>You can close this page.</p>
            </main>
            """)
    }

    /// The one page for an unknown link, a malformed one, and anything else not found.
    static let notFound = shell(title: "Link not found", body: """
        <main class="done">
          <h1>This link does not work</h1>
          <p>Please check that the whole link was copied, or ask the person who sent it for a new one.</p>
        </main>
        """)

    /// A plain page for other refusals (too many requests, a server error).
    static func problem(_ heading: String, _ text: String) -> String {
        shell(title: heading, body: """
            <main class="done">
              <h1>\(HTMLText.escaped(heading))</h1>
              <p>\(HTMLText.escaped(text))</p>
            </main>
            """)
    }

    private static func shell(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(HTMLText.escaped(title))</title>
        <link rel="stylesheet" href="\(PageAssets.stylePath)">
        <script src="\(PageAssets.scriptPath)" defer></script>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    /// "3:00" for 180 seconds.
    static func clock(_ seconds: Int) -> String {
        "\(seconds / 60):" + (seconds % 60 < 10 ? "0" : "") + "\(seconds % 60)"
    }
}
