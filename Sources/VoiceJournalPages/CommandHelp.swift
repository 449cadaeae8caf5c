/// The longer help of commands, kept beside the texts they print rather than in the
/// command-line target.
package enum CommandHelp {
    package static let play = """
        ID is an entry's number; anything else is an audio file (any format voicejournal reads: WAV, FLAC, \
        MP3, Ogg, Opus, M4A, WebM, ...). Times are seconds (291, 291.5) or a clock (4:51, 1:02:03).

        On a terminal a status line shows where you are, the level and the words being spoken. Keys: \
        space pause/resume, Left/Right back/forward 5 s, Up/Down previous/next segment, q quit. Off a terminal \
        nothing is printed but errors; --json prints what was played.
        """

    package static let serve = """
        Each assignment's link (`assign` and `assignment link ID` print it) opens a page with \
        the question, a record button and a send button; the recording arrives in the journal \
        as the assignment's answer, its transcription queued (run at once with --transcribe). \
        The link's token is its only credential. Listens on 127.0.0.1 unless --host says \
        otherwise: to reach it from a phone, put a reverse proxy or tunnel with TLS in front and \
        give its address as --public-url (see docs/serve.md), and name the proxy with \
        --trusted-proxy so each visitor is rate-limited on their own. While it runs, `assign` and \
        `assignment link` print links to it (its --public-url, else where it listens). Ctrl-C or \
        SIGTERM stops it after the uploads in flight (at most --shutdown-timeout seconds).
        """

    package static let meter = """
        Without FILE: the level of --device until Enter, Ctrl-C or --duration; nothing is saved. \
        With FILE (any audio format libsndfile or FFmpeg decodes: WAV, FLAC, MP3, M4A, WebM, ...): its waveform, peak and RMS envelopes over a time axis, on a decibel scale from -48 dBFS at the centre to 0 at the edges (quieter is blank).
        """

    package static let answer = """
        Without --file this records exactly like `record --assignment ID`. With --file the \
        audio (any format `meter FILE` draws, judged by its bytes; an empty, cut-off or \
        implausibly long file is refused) is copied into the journal's audio folder. Either \
        way the assignment is marked answered and the transcription queued. An answer sent \
        again with the same --idempotency-key (a retry after a lost reply) gets the first \
        recording back and stores nothing; without one, each attempt gets a fresh key.
        """

    package static let assign = """
        Prints the link that answers it: send it to the person, and `voicejournal serve` takes \
        their recording. Or answer it here with: voicejournal answer ASSIGNMENT_ID (records) or --file AUDIO.
        """

    /// The root command's help: where data and settings come from, the exit codes.
    package static let voicejournal = """
        Data lives in --home DIR, else $VOICEJOURNAL_HOME, else $XDG_DATA_HOME/voicejournal \
        (~/.local/share/voicejournal). Transcription uses $OPENAI_API_KEY and \
        $OPENAI_BASE_URL (any OpenAI-compatible server, e.g. voicejournal-whisper-server).

        Settings come from the flag, else the environment, else the config file \
        ($XDG_CONFIG_HOME/voicejournal/config.toml, or --config FILE), else the default: \
        `voicejournal config show` prints them and where each came from.

        Exit codes: 0 success, 1 some work failed, 2 usage error, 3 configuration error, \
        130 interrupted.
        """

    /// Every delete's.
    package static let delete = """
        Says what will go (entries, recordings, transcripts, queued jobs, audio files in the data \
        folder) and asks first on a terminal; elsewhere --yes is needed. Only files voicejournal \
        made are deleted (under the data folder's audio/ and tmp/): audio from folders given to \
        'transcribe' never is.
        """

    package static let assignmentSend = """
        Emails the question to the assignment's person (their address: person add NAME --email \
        E): who asks it, the question, and the link that answers it, exactly as `assignment \
        link` prints it, in plain text and HTML. The link must be one a phone can record from: \
        https, or http on this machine (set public_url, or --public-url). Mail goes through the \
        config file's [mail] server (see `mail test`). The send is a job of the delivery queue: \
        a server that says "not now" (4xx) or a network failure is tried again with backoff \
        (`queue run`); a refusal (5xx, "550 no such user") is shown and not tried again. A \
        message is sent at most once: if the connection broke while it was being sent, it may \
        have arrived, and it is not sent again by itself: `assignment show` says so and \
        --again sends it again.
        """

    package static let assignmentRemind = """
        Emails a reminder of an unanswered assignment, when the cooldown allows: 1 hour after \
        the link went, then 24 hours after the first reminder, then 72 hours between each \
        after; and at most [mail] reminders_per_day (default 3) to one person in a day. A \
        reminder refused says why and when the next may go. `assignment show --json` has \
        reminderCount and lastReminderAt.
        """

    package static let remindDue = """
        Sends a reminder of every unanswered assignment whose link went at least [mail] \
        remind_after_days (default 3) ago and has had fewer than reminders_most (default 3) \
        reminders, as the cooldown and the daily cap allow (see `assignment remind`). Safe to \
        run as often as you like: a reminder that went waits its cooldown. A user timer runs \
        it daily once enabled: systemctl --user enable --now voicejournal-remind.timer
        """

    package static let mailTest = """
        Sends one short message (a plain-text and an HTML part) to ADDRESS through the SMTP server \
        of the config file's [mail] table, and prints the server's answer (250 ... queued as ...). \
        smtp:// URLs must offer STARTTLS and smtps:// ones speak TLS at once; the certificate must \
        name the host (ca_file names a CA to trust). Plain text goes only to this machine, with \
        allow_plain_loopback = true. A login takes username in [mail] and the password in \
        $VOICEJOURNAL_SMTP_PASSWORD, never in the file. Exit 0: the server took it; 1: it refused \
        the message, or the connection broke once the message was on its way (it may have it); \
        2: ADDRESS is not an address; 3: no [mail], a refused login or certificate, or the server \
        out of reach or saying "try later" (see docs/mail.md).
        """

    package static let config = """
        Settings come from the command-line flag, else the environment variable, else the \
        config file ($XDG_CONFIG_HOME/voicejournal/config.toml, ~/.config/voicejournal/config.toml, \
        or --config FILE), else the built-in default; for public_url a serve running on the \
        home comes before the config file. Keys are shown as set or unset, never their value.
        """

    package static let entryEdit = """
        Opens $VISUAL (else $EDITOR, else vi) on the typed text, or on the transcript one \
        segment a line, so each line keeps its time in the recording; --text replaces it \
        without an editor. The correction is searchable at once; the original is kept \
        (entry show ID --original). Add names the model keeps mishearing with: \
        voicejournal vocabulary add WORD.
        """

    package static let entryShow = """
        A transcript shows one segment a line with its time ([02:10] words). A line \
        ending in (?) is a segment the model was unsure of (its mean log probability \
        below -1): worth checking against the audio. A line [unheard START-END] (mm:ss, \
        an en dash between) marks speech that no words came back for, even when sent \
        again on its own. \
        --raw adds what the model answered that the transcript leaves out (words over \
        silence, repetition loops, segments the model judged no speech, times outside \
        the audio), each with its \
        time and reason, and the seconds of audio sent with the re-sends made. --json \
        carries all of it: per segment avgLogprob, noSpeechProb, lowConfidence and \
        words; per transcript unheard, leftOut, audioSentSeconds and resends. \
        --original shows what a corrected entry said before its first correction.
        """

    package static let stats = """
        Days are counted in your local time zone; a streak still counts today if yesterday had \
        an entry. The mood chart fits the terminal's width (or $COLUMNS, else 80); it and the \
        calendar use Unicode blocks when the locale is UTF-8 (LC_ALL, LC_CTYPE, LANG), plain \
        ASCII otherwise. Audio sent is what was uploaded for transcription (chunks, live pieces \
        and re-sends included), summed over the transcripts that counted it; left out is those \
        recordings' length less what was sent for them (pauses shortened, silence never sent), \
        never below 0. --json: audioSentSeconds, audioLeftOutSeconds and resends.
        """

    package static let record = """
        Stops on Enter, Ctrl-C (the file is still saved; exit 130), --max-duration, or \
        --stop-on-silence. The file goes to <home>/audio/YYYY/MM/ and a voice entry is \
        created. While you speak, the take is cut at pauses into pieces queued for \
        transcription: `queue run` uploads them, or --live does it as they come, shows \
        their text and prints the transcript when you stop.
        """

    package static let search = """
        Every word must appear; word forms match ("walking" finds "walked"). FTS5's query \
        language works too: "an exact phrase", prefix*, AND, OR, NOT (in capitals), ( ) and \
        NEAR(garden rain, 5). A match in a transcript shows where it is in the recording (@12:03) \
        and the command that plays it from a second before; --play plays the best such match \
        after listing them (as `voicejournal play --search QUERY` does, filters applied).
        """

    package static let reflect = """
        Sends the entry's words (its transcript as corrected, or its text) as numbered \
        sentences, its journal's people, and counts about its last four weeks to the chat \
        endpoint you name (--chat-url, VOICEJOURNAL_CHAT_URL or [chat] base_url; the key from \
        VOICEJOURNAL_CHAT_API_KEY or the variable [chat] api_key_env names), and asks for a \
        reflection as JSON: a summary, a mood with its intensity, themes, the people the entry \
        names, up to three highlights, follow-up questions, an insight and a line of \
        encouragement. The answer is checked here, whatever the server enforces: highlights \
        are sentence numbers of the entry (shown as the entry's own sentence with its time and \
        the command that plays it), a person counts only if the entry names them, moods and \
        themes come from the lists, and a mood that contradicts the entry's words is not \
        suggested. An answer that breaks a rule is asked for once more with the reasons; after \
        that the reflection is kept as failed, with why, and none of it is shown. An entry \
        longer than the model's context ([chat] context, 8192 tokens unless set) is reflected \
        in parts, its sentences numbered as in the whole entry, then once as a whole from the \
        parts' checked reflections; a server that says its context is smaller makes the parts \
        smaller.

        Every reflection is kept with the model, the endpoint, tokens, seconds and cost; an \
        entry that has one is shown it again without a request (--again asks anew). \
        --apply takes the suggested mood and first theme where the entry has none; what you \
        set is never overwritten. --dry-run prints the messages as they would go (for a long \
        entry, the first part's, and how many parts) and sends nothing.

        --week reflects on an ISO week (Monday to Sunday, your time zone): this one, or the \
        one holding the day given after it (reflect --week 2026-03-04, --week last for the \
        week before this one). --month reflects on a month: this one, or the one given \
        (reflect --month 2026-03, --month last). --journal NAME keeps to one journal's entries. \
        The period's numbers are counted by the journal, never by the model, and printed \
        first: entries, minutes spoken, words, moods, the mood score against the period \
        before and part by part, top themes, the people named or who answered, and the \
        streak to its last entry. The model is given them as facts, with the entries by \
        number (their first sentences, cut to keep the request near 1,500 tokens), and \
        writes a short narrative citing entries as #number, one or two questions and a \
        line of encouragement; an entry it cites must be one of the period's. Kept per \
        period like an entry's (shown again without a request; --again asks anew). A \
        period without entries is said in one line, nothing is sent, and the exit status \
        is 0.

        With reflect = "auto" under [chat] (or record --reflect), every new entry gets a \
        reflection job in the queue, asked for by `queue run` once its words are there; \
        `queue status` counts them. More servers, as [[chat.endpoint]] tables, form a pool: \
        one that does not answer passes the work to the next.
        """

    package static let backup = """
        Writes one file (a tar archive that any tar can list): a consistent snapshot of the \
        database, taken with SQLite's online backup (right while serve or a queue runner \
        writes); every recording's audio, named by its path relative to the data folder (audio \
        kept elsewhere, e.g. a folder given to transcribe, under audio/from-elsewhere/); and \
        manifest.json with each file's size and SHA-256. The file is private (mode 0600) and \
        appears only when it is whole. The settings file is not part of it.

        Restore it with 'voicejournal restore FILE' (into an empty data folder), or bring \
        chosen entries back into this journal with 'voicejournal restore FILE --entry ID'.
        """

    package static let restore = """
        Without --entry: restores the whole journal into an empty data folder (a new one: \
        voicejournal --home DIR restore FILE). With --entry ID (repeatable): brings those \
        entries back into this journal, with their recordings, audio, transcripts and \
        whatever they belong to that is gone (a deleted journal, person or question); an \
        entry the journal still has is refused. --list shows the entries the backup has and \
        this journal does not (deleted since), and changes nothing.

        The file is checked before anything changes: every file its manifest lists must be \
        there with its size and SHA-256, and nothing else; the database must be SQLite's, \
        pass its own check and hold nothing voicejournal's does not; every row is checked as \
        'import' checks one. Audio goes under the data folder's audio/ at the path it had \
        (beside it as NAME-restored-N when another file is there); queued work is queued \
        again. When anything fails, nothing is restored.
        """

    package static let export = """
        md (the default): one document per journal, each entry with its date, mood, theme, text \
        or transcript (speech no words came back for marked where it is: [unheard START-END]) \
        and a relative link to its audio; answered questions follow. With --out \
        DIR, one file per journal (DIR/<journal>.md, mode 0600); --with-audio copies the audio \
        into DIR/audio/ and links to the copies: only files that still are their recording \
        (size and SHA-256 as recorded); any other is left out and named on stderr.

        json: everything (journals, people, questions, assignments, entries, recordings, \
        transcripts with segments, confidence, words, unheard stretches, left-out text, audio \
        sent and re-sends, jobs), table by table; 'voicejournal import FILE' reads it \
        back into an empty data folder. --journal, --since and --until keep a part of it that \
        imports on its own (rows that refer to rows left out are left out too). With --out DIR \
        it is written to DIR/voicejournal.json. It carries no audio: a backup of the journal \
        with its audio is 'voicejournal backup FILE'.

        srt, vtt: the transcript of one recording (--recording ID) as subtitles; an unheard \
        stretch is a cue of its own. txt: its text.

        Files already in DIR are left alone unless --force is given.
        """

    package static let importing = """
        Every row comes back as it was exported (ids, times, transcripts with their segments, \
        queued jobs); the search index is rebuilt. The data folder must hold no journal yet: \
        import into a new one with --home DIR. Audio files are not part of the export: \
        recordings keep the paths they had. Every value is checked first (types, kinds, times, \
        ids, the rows each row refers to), and every path: a recording's must be a file under \
        the data folder's audio/ or lie outside the data folder. A transcript's review is \
        untrusted data too: at most 100,000 words, unheard stretches, left-out pieces or \
        re-sends; every time finite, from 0, its start before its end; avgLogprob from -1000 \
        to 0, noSpeechProb from 0 to 1; reasons silence, no-speech, repetition or outside-audio; words up to \
        1,000 and left-out text up to 100,000 characters. A document that breaks a rule is \
        refused with one line naming the row and field, and nothing is imported.
        """

    package static let transcribe = """
        Audio is a regular file libsndfile or FFmpeg's libraries can decode (WAV, FLAC, \
        OGG, Opus, MP3, AIFF, M4A/AAC, MP4, WebM, ...); anything else is skipped with a line \
        saying why: pipes, devices and sockets (never read), dangling or looping links, \
        files neither library decodes, and truncated audio (the header promises more than \
        the file holds). Symbolic links are followed; hidden files and folders are passed \
        over without a word. \
        Files are not copied: their paths are stored. The same \
        audio is uploaded and stored once, however often it is given; running the \
        command again after a crash resumes where it stopped.

        One file's transcript is printed on stdout (--print does it for several, --quiet \
        not at all); for several files, a line each says where its text is (an entry, or \
        `export --format txt --recording ID`).

        Needs $OPENAI_API_KEY unless the base URL is a local server. Exit codes: 0 all \
        transcribed, 1 a file failed for good or audio was skipped (empty, truncated, damaged, \
        still being written; a named path missing or not audio; a text file in a folder is not), \
        3 bad key / no quota / unreachable server, 130 interrupted.
        """

    package static let journalShow = """
        Each question is a draft (given to nobody), awaiting an answer (given, and for how \
        long), or answered (when, by whom, and how the answer begins).
        """

    package static let journalLanguage = """
        An upload of a recording in the journal sends its language, unless the run's \
        --language or the answering person's language says otherwise; with none set the \
        model detects it. Recordings transcribed already keep their transcripts.
        """

    package static let personLanguage = """
        An upload of their answer sends their language before the journal's, unless the \
        run's --language says otherwise.
        """

    package static let queueRetry = """
        With --done, a job that is done is transcribed again (say, after a server answered \
        it with nothing): its transcript stays as it is until the new one is stored, and \
        stays if the new attempt fails.
        """

    package static let vocabulary = """
        Every upload of a recording in the journal sends its vocabulary as the prompt, most \
        recent first, as much as fits in the model's 224-token budget (after any --prompt).
        """

    package static let ask = """
        Finds the passages of your journal that may answer (full-text search over entries and \
        transcripts; the question's meaningful words, your people's names kept whole; the \
        sentence holding the rarest of them and what was asked, a time for "when" or a place \
        for "where", first), reads \
        the period it names ("yesterday", "last week", "in October", "since Monday") and shows \
        the range used, counts with SQL what a counting question asks ("how often", "how \
        many"), and sends the numbered passages to the chat endpoint you name (as for \
        reflect). The answer is printed as the model writes it; then every citation is \
        checked against the passages sent: a good one is shown as entry, date and time with \
        the command that plays it, one that names no passage sent is taken out and counted. \
        "Nothing in your journal says." is an answer. Every turn is kept: --continue asks \
        on in the latest conversation (retrieving again), --list and --show ID read them.
        """

    package static let nudge = """
        Today is your local day (TZ). When an entry was made today, or today's nudge was sent \
        already, nothing is sent and the exit status is 0; before [nudge] after (a local time, \
        "20:00" unless the config file says otherwise) nothing is sent either, so its timer may \
        run it often. Otherwise one reminder goes out: a desktop notification through the \
        freedesktop Notifications service on the session bus (DBUS_SESSION_BUS_ADDRESS, else \
        $XDG_RUNTIME_DIR/bus), or, where there is no session bus or no notification service on \
        it, an email. Its text is [nudge] message, else a line of its own. A nudge sent is \
        recorded with its day, so two runs at once never send two; one that could not be sent \
        records nothing, and the next run tries again (no notification service and no mail set \
        up: exit 3; a send that failed: exit 1). The timer voicejournal-nudge.timer (installed, \
        not enabled) runs it every half hour in the evening: systemctl --user enable --now \
        voicejournal-nudge.timer.
        """
}
