import Foundation
import Testing
import VoiceJournalStore
import VoiceJournalTestSupport

/// `reflect --week` and `reflect --month` against a stub chat server over real HTTP, on a
/// month of entries the test makes itself: the numbers the command prints equal what the test
/// counts on the same database with SQLite alone (Python's sqlite3, the user's time zone set
/// there as in the command), what is sent is bounded and checked, and a kept reflection is
/// never asked for twice.
@Suite(.onTestThreads) struct ReflectPeriodTests {
    /// A zone with a clock change in the month (Sunday 29 March 2026, 02:00 → 03:00), and whose
    /// midnight is not UTC's: an entry at 00:15 on 1 March is 28 February in UTC.
    static let zone = "Europe/Berlin"
    static let now = "2026-04-02T10:00:00Z"

    /// A journal of March 2026 and a few days around it, in `zone`; see `make`.
    struct Month {
        let folder: TemporaryFolder
        let binary: VoicejournalBinary
        var database: URL { binary.home.appendingPathComponent("voicejournal.sqlite") }
    }

    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        return calendar
    }

    static func local(_ month: Int, _ day: Int, _ hour: Int, _ minute: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: hour, minute: minute))!
    }

    /// Texts with the people in them ("Anna's" names Anna, "Annabel" does not; a name of two
    /// words), runs of spaces, tabs and line breaks between words.
    static let texts = [
        "Walked to the lake with Anna. The water was calm.",
        "Long day at work.  The report is done.\tTom's  idea helped.",
        "Annabel called; we laughed.\nThen I cooked.",
        "Grandma Rose told the story of the flood again. I wrote it down.",
        "Nothing much. Rain all day.",
        "Anna's birthday! We sang, ate cake and (TOM) played the piano.",
        "Ran five kilometres before breakfast.",
    ]
    static let moods: [Mood?] = [.happy, .grateful, .excited, .neutral, .sad, .anxious, .stressed, .angry, nil]
    static let themes: [Theme?] = [.work, .family, .health, .work, .personal, .hobbies, nil, .relationships, .work, nil]

    /// The month: entries on most days of March 2026 (two on 7 and 29 March, one at 00:15 on
    /// 1 March and at 23:30 on 31 March), some in the journal Work, every third one spoken
    /// (a transcript, one corrected, one recorded twice: its minutes both takes, its words the latest), four in
    /// late February (the streak runs into March; the month before's mood) and one at 00:30 on
    /// 1 April (31 March in UTC). Tom answers a question on 10 March and on 2 April.
    static func make(_ folder: TemporaryFolder, server: StubChatServer?, extra: [String: String] = [:]) throws -> Month {
        let home = folder.path("home")
        var environment = ["TZ": zone, "VOICEJOURNAL_NOW": now]
        if let server { environment["VOICEJOURNAL_CHAT_URL"] = server.baseURL }
        environment.merge(extra) { $1 }
        let binary = VoicejournalBinary(home: home, environment: environment)
        let store = try JournalStore(home: DataHome(url: home), logger: TemporaryJournal.logger)
        for name in ["Anna", "Tom", "Grandma Rose"] { _ = try store.addPerson(name: name, relationship: "family", email: nil) }
        _ = try store.addEntry(journal: nil, title: nil, content: "before the journal was used", mood: nil, theme: nil, createdAt: local(1, 5, 9))
        _ = try store.createJournal(name: "Work")
        var moments: [Date] = [local(2, 25, 8), local(2, 26, 8), local(2, 27, 20), local(2, 28, 23, 30), local(3, 1, 0, 15)]
        for day in [2, 3, 5, 6, 7, 8, 10, 12, 13, 14, 15, 18, 19, 20, 21, 22, 24, 25, 26, 27, 28, 29, 30] {
            moments.append(local(3, day, 9 + day % 10, 5))
            if day == 7 || day == 29 { moments.append(local(3, day, 21)) }
        }
        moments += [local(3, 31, 23, 30), local(4, 1, 0, 30)]
        var spoken: [Int64] = []
        for (index, moment) in moments.enumerated() {
            let entry = try store.addEntry(journal: index % 4 == 3 ? "Work" : nil, title: nil, content: texts[index % texts.count],
                                           mood: moods[index % moods.count], theme: themes[index % themes.count], createdAt: moment)
            if index % 3 == 0 { spoken.append(entry.id) }
        }
        // Spoken entries: no typed text, a recording of 30 s more each time, its transcript.
        var sql = ""
        for (index, id) in spoken.enumerated() {
            let seconds = 45.5 + Double(index) * 30
            sql += """
                UPDATE entry SET kind = 'voice', content = '' WHERE id = \(id);
                INSERT INTO recording (path, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                    SELECT 'audio/\(id).wav', \(seconds), 16000, 1, 'wav', 1000, 'complete', id, createdAt FROM entry WHERE id = \(id);
                INSERT INTO transcript (recordingId, text, language, model, segments, createdAt)
                    SELECT max(id), 'Spoken on entry \(id): Anna and Tom  came\tby.\nGood talk.', 'en', 'whisper-1', '[]', '2026-04-01 00:00:00.000'
                    FROM recording WHERE entryId = \(id);

                """
        }
        let corrected = spoken[2], twice = spoken[4]
        sql += """
            UPDATE transcript SET originalText = text, text = 'Corrected: Grandma Rose visited. Seven words in all here.'
                WHERE recordingId = (SELECT max(id) FROM recording WHERE entryId = \(corrected));
            INSERT INTO recording (path, durationSeconds, sampleRate, channels, format, sizeBytes, state, entryId, createdAt)
                SELECT 'audio/\(twice)-2.wav', 12.25, 16000, 1, 'wav', 1000, 'complete', id, createdAt FROM entry WHERE id = \(twice);
            INSERT INTO transcript (recordingId, text, language, model, segments, createdAt)
                SELECT max(id), 'The second take says only this.', 'en', 'whisper-1', '[]', '2026-04-01 00:00:00.000'
                FROM recording WHERE entryId = \(twice);

            """
        for (index, answered) in [local(3, 10, 18), local(4, 2, 9)].enumerated() {
            let question = try store.addQuestion(journal: "Personal", text: "What was the flood like? (\(index))")
            let assignment = try store.assign(questionId: try #require(question.id), to: "Tom")
            sql += "UPDATE assignment SET status = 'answered', answeredAt = '\(Self.stored(answered))' WHERE id = \(assignment.id);\n"
        }
        _ = try runTool("python3", ["-c", "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.executescript(sys.argv[2]); c.commit()",
                                    home.appendingPathComponent("voicejournal.sqlite").path, sql])
        return Month(folder: folder, binary: binary)
    }

    /// A date as the journal's database holds it (UTC, to the millisecond).
    static func stored(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
        return formatter.string(from: date)
    }

    /// The numbers of the local days `first` to `last` (and `before`: the period before),
    /// counted by SQLite alone in `zone` (its `localtime`), words split by Python, the streak
    /// walked day by day: nothing of voicejournal's code.
    static func expected(_ month: Month, first: String, last: String, before: (String, String), journal: String? = nil) throws -> [String: Any] {
        let script = #"""
            import datetime, json, os, re, sqlite3, sys, time
            os.environ["TZ"] = sys.argv[2]; time.tzset()
            db = sqlite3.connect(sys.argv[1])
            first, last, pfirst, plast, journal = sys.argv[3:8]
            journal = journal or None
            scope = " AND journalId = (SELECT id FROM journal WHERE name = :j)" if journal else ""
            SCORE = ("CASE mood WHEN 'happy' THEN 5 WHEN 'grateful' THEN 4 WHEN 'excited' THEN 4 WHEN 'neutral' THEN 3 "
                     "WHEN 'sad' THEN 1 WHEN 'anxious' THEN 2 WHEN 'stressed' THEN 2 WHEN 'angry' THEN 1 END")
            def ids(a, b):
                return [r[0] for r in db.execute("SELECT id FROM entry WHERE date(createdAt, 'localtime') BETWEEN :a AND :b" + scope,
                                                 dict(a=a, b=b, j=journal))]
            inside = ids(first, last)
            within = "(" + (",".join(map(str, inside)) or "NULL") + ")"
            previous = "(" + (",".join(map(str, ids(pfirst, plast))) or "NULL") + ")"
            out = {"entries": len(inside)}
            out["minutes"] = db.execute("SELECT coalesce(sum(durationSeconds), 0) / 60.0 FROM recording WHERE state = 'complete' AND entryId IN " + within).fetchone()[0]
            texts = []
            for eid, content in db.execute("SELECT id, content FROM entry WHERE id IN " + within).fetchall():
                if content != "":
                    texts.append(content)
                    continue
                row = db.execute("SELECT t.text FROM transcript t WHERE t.recordingId = (SELECT max(id) FROM recording WHERE entryId = ?)", (eid,)).fetchone()
                texts.append(row[0] if row else "")
            out["words"] = sum(len(t.split()) for t in texts)
            out["moods"] = dict(db.execute("SELECT mood, count(*) FROM entry WHERE mood IS NOT NULL AND id IN " + within + " GROUP BY mood").fetchall())
            out["moodEntries"], out["average"] = db.execute("SELECT count(" + SCORE + "), avg(" + SCORE + ") FROM entry WHERE id IN " + within).fetchone()
            out["previousEntries"], out["previousAverage"] = db.execute("SELECT count(*), avg(" + SCORE + ") FROM entry WHERE id IN " + previous).fetchone()
            out["themes"] = [[t, n] for t, n in db.execute("SELECT theme, count(*) AS n FROM entry WHERE theme IS NOT NULL AND id IN " + within
                                                          + " GROUP BY theme ORDER BY n DESC, theme LIMIT 3").fetchall()]
            out["days"] = {d: [n, a] for d, n, a in db.execute("SELECT date(createdAt, 'localtime') AS d, count(*), avg(" + SCORE + ") FROM entry WHERE id IN "
                                                              + within + " GROUP BY d").fetchall()}
            days = {datetime.date.fromisoformat(r[0]) for r in db.execute(
                "SELECT date(createdAt, 'localtime') FROM entry WHERE date(createdAt, 'localtime') <= :b" + scope, dict(b=last, j=journal))}
            streak = 0
            if inside:
                day = max(datetime.date.fromisoformat(r[0]) for r in db.execute("SELECT date(createdAt, 'localtime') FROM entry WHERE id IN " + within))
                while day in days:
                    streak += 1
                    day -= datetime.timedelta(days=1)
            out["streak"] = streak
            def words(text):
                return " " + " ".join(w[:-2] if w.endswith("'s") else w for w in re.findall(r"[\w'-]+", text.lower())) + " "
            people = {}
            for pid, name in db.execute("SELECT id, name FROM person WHERE relationship != 'self'").fetchall():
                mentions = sum(1 for t in texts if " " + name.lower() + " " in words(t))
                answers = db.execute("SELECT count(*) FROM assignment a JOIN question q ON q.id = a.questionId WHERE a.personId = :p "
                                     "AND a.status = 'answered' AND date(a.answeredAt, 'localtime') BETWEEN :a AND :b"
                                     + (" AND q.journalId = (SELECT id FROM journal WHERE name = :j)" if journal else ""),
                                     dict(p=pid, a=first, b=last, j=journal)).fetchone()[0]
                if mentions or answers:
                    people[name] = [mentions, answers]
            out["people"] = people
            print(json.dumps(out))
            """#
        let output = try runTool("python3", ["-c", script, month.database.path, zone, first, last, before.0, before.1, journal ?? ""])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    /// `numbers` (the command's `--json`) hold exactly what `expected` counted.
    static func compare(_ numbers: [String: Any], _ expected: [String: Any], sourceLocation: SourceLocation = #_sourceLocation) {
        func double(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }
        /// Both absent (null), or both there and equal but for rounding.
        func same(_ a: Any?, _ b: Any?) -> Bool {
            guard let a = double(a), let b = double(b) else { return double(a) == nil && double(b) == nil }
            return abs(a - b) < 1e-9
        }
        #expect(numbers["entries"] as? Int == expected["entries"] as? Int, sourceLocation: sourceLocation)
        #expect(same(numbers["minutesSpoken"], expected["minutes"]), sourceLocation: sourceLocation)
        #expect(numbers["words"] as? Int == expected["words"] as? Int, sourceLocation: sourceLocation)
        let counted = (expected["moods"] as? [String: Int]) ?? [:]
        let moods = (numbers["moods"] as? [String: Int]) ?? [:]
        #expect(Set(moods.keys) == Set(Mood.allCases.map(\.rawValue)), sourceLocation: sourceLocation)
        for mood in Mood.allCases.map(\.rawValue) {
            #expect(moods[mood] == counted[mood] ?? 0, "\(mood)", sourceLocation: sourceLocation)
        }
        #expect(numbers["moodEntries"] as? Int == expected["moodEntries"] as? Int, sourceLocation: sourceLocation)
        #expect(same(numbers["averageMoodScore"], expected["average"]), sourceLocation: sourceLocation)
        #expect(numbers["previousEntries"] as? Int == expected["previousEntries"] as? Int, sourceLocation: sourceLocation)
        #expect(same(numbers["previousAverageMoodScore"], expected["previousAverage"]), sourceLocation: sourceLocation)
        let themes = ((numbers["themes"] as? [[String: Any]]) ?? []).map { [$0["name"] as? String ?? "", "\($0["count"] ?? "")"] }
        let countedThemes = ((expected["themes"] as? [[Any]]) ?? []).map { ["\($0[0])", "\($0[1])"] }
        #expect(themes == countedThemes, sourceLocation: sourceLocation)
        #expect(numbers["streakDays"] as? Int == expected["streak"] as? Int, sourceLocation: sourceLocation)
        let people = Dictionary(uniqueKeysWithValues: ((numbers["people"] as? [[String: Any]]) ?? []).map {
            ($0["name"] as? String ?? "", [$0["mentions"] as? Int ?? -1, $0["answers"] as? Int ?? -1])
        })
        #expect(people == (expected["people"] as? [String: [Int]]) ?? [:], sourceLocation: sourceLocation)
    }

    @Test func aMonthsNumbersEqualAnIndependentCountAndAreAskedForOnce() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let result = try month.binary.run(["reflect", "--month", "2026-03", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try result.json() as? [String: Any])
        #expect(json["status"] as? String == "valid" && json["promptVersion"] as? String == "reflect-period-1", "\(result.stdout)")
        let numbers = try #require(json["numbers"] as? [String: Any])
        let expected = try Self.expected(month, first: "2026-03-01", last: "2026-03-31", before: ("2026-02-01", "2026-02-28"))
        Self.compare(numbers, expected)
        // The fixture holds what the test is about: entries at both edges, people named and not.
        #expect(expected["entries"] as? Int == 27 && expected["streak"] as? Int == 8, "\(expected)")
        #expect((expected["people"] as? [String: [Int]])?["Tom"]?[1] == 1, "\(expected)")
        #expect(expected["previousAverage"] is NSNumber && ((expected["minutes"] as? NSNumber)?.doubleValue ?? 0) > 1, "\(expected)")
        #expect((expected["people"] as? [String: [Int]])?.keys.sorted() == ["Anna", "Grandma Rose", "Tom"], "\(expected)")
        // The month's weeks, Monday to Sunday, cut at its edges (1 March 2026 is a Sunday).
        let trend = try #require(numbers["trend"] as? [[String: Any]])
        #expect(trend.map { $0["label"] as? String ?? "" } == ["1", "2-8", "9-15", "16-22", "23-29", "30-31"])
        #expect(trend.map { $0["entries"] as? Int ?? 0 }.reduce(0, +) == expected["entries"] as? Int)

        // What went: the numbers as facts, each entry by number, within about 1,500 tokens.
        let sent = try server.completions()
        #expect(sent.count == 1)
        let user = try #require(sent.first?.lastUserContent)
        #expect(user.contains("- Entries: 27\n") && user.contains("- Words: \(expected["words"] as? Int ?? -1)\n"), "\(user)")
        #expect(user.contains("- Streak: 8 days in a row with an entry, to Tuesday 31 March"), "\(user)")
        let ids = try Self.entryIds(month, first: "2026-03-01", last: "2026-03-31")
        for id in ids { #expect(user.contains("\n#\(id) "), "entry \(id) is not listed") }
        #expect((sent.first?.promptTokens ?? .max) <= 1_500 + 50, "\(sent.first?.promptTokens ?? -1) tokens")
        #expect(sent.first?.problems.isEmpty == true)

        // The page: the numbers counted here, the narrative marked as the model's, the cited entry the journal's own.
        let again = try month.binary.run(["reflect", "--month", "2026-03"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("March 2026 (2026-03), all journals — counted by the journal:"), "\(again.stdout)")
        #expect(again.stdout.contains("  Entries:") && again.stdout.contains("Mood by week:"), "\(again.stdout)")
        #expect(again.stdout.contains("stub narrative") && again.stdout.contains("Cited #\(ids[0]) ("), "\(again.stdout)")
        #expect(again.stdout.contains("nothing was sent"))
        #expect(try server.completions().count == 1, "a kept reflection is shown, not asked for again")
        #expect(try month.binary.run(["reflect", "--month", "2026-03", "--again"]).status == 0)
        #expect(try server.completions().count == 2)
        // Kept in the reflection table: a month, no entry, its bounds, the numbers in its fields.
        let row = try runTool("python3", ["-c", """
            import sqlite3, sys, json
            c = sqlite3.connect(sys.argv[1])
            rows = c.execute("SELECT periodKind, entryId, periodStart, periodEnd, status, fields FROM reflection ORDER BY id").fetchall()
            print(json.dumps([[r[0], r[1], r[2], r[3], r[4], json.loads(r[5])["numbers"]["entries"]] for r in rows]))
            """, month.database.path])
        #expect(row.trimmingCharacters(in: .whitespacesAndNewlines) == """
            [["month", null, "2026-02-28 23:00:00.000", "2026-03-31 22:00:00.000", "valid", 27], \
            ["month", null, "2026-02-28 23:00:00.000", "2026-03-31 22:00:00.000", "valid", 27]]
            """, "\(row)")
    }

    @Test func aWeeksNumbersEqualAnIndependentCountDayByDay() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        // The week of the clock change: Monday 23 to Sunday 29 March.
        for (day, first, last, before) in [("2026-03-25", "2026-03-23", "2026-03-29", ("2026-03-16", "2026-03-22")),
                                           ("2026-03-01", "2026-02-23", "2026-03-01", ("2026-02-16", "2026-02-22"))] {
            let result = try month.binary.run(["reflect", "--week", day, "--json"])
            #expect(result.status == 0, "\(result.stderr)")
            let json = try #require(try result.json() as? [String: Any])
            let numbers = try #require(json["numbers"] as? [String: Any])
            let expected = try Self.expected(month, first: first, last: last, before: before)
            Self.compare(numbers, expected)
            let period = try #require(json["period"] as? [String: Any])
            #expect(period["kind"] as? String == "week")
            // Day by day: Monday to Sunday, each day's entries and mean mood score.
            let trend = try #require(numbers["trend"] as? [[String: Any]])
            #expect(trend.map { $0["label"] as? String ?? "" } == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"])
            let days = (expected["days"] as? [String: [Any]]) ?? [:]
            var date = Self.calendar.date(from: DateComponents(year: Int(first.prefix(4)), month: Int(first.dropFirst(5).prefix(2)),
                                                               day: Int(first.suffix(2))))!
            for point in trend {
                let key = DateFormatter.localDay.string(from: date)
                let counted = days[key]
                #expect(point["entries"] as? Int == (counted?[0] as? Int ?? 0), "\(key)")
                let average = (point["averageMoodScore"] as? NSNumber)?.doubleValue
                let expectedAverage = (counted?[1] as? NSNumber)?.doubleValue
                #expect(average.map { a in expectedAverage.map { abs(a - $0) < 1e-9 } ?? false } ?? (expectedAverage == nil), "\(key)")
                date = Self.calendar.date(byAdding: .day, value: 1, to: date)!
            }
        }
        #expect(try server.completions().count == 2)
        // The streak runs into the period from before it: 25 February to 1 March.
        let crossing = try #require(try month.binary.run(["reflect", "--week", "2026-03-01", "--json"]).json() as? [String: Any])
        #expect((crossing["numbers"] as? [String: Any])?["streakDays"] as? Int == 5)
        #expect(try server.completions().count == 2)
    }

    @Test func oneJournalsWeekIsCountedAndKeptApartFromAllJournals() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let work = try month.binary.run(["reflect", "--month", "2026-03", "--journal", "work", "--json"])
        #expect(work.status == 0, "\(work.stderr)")
        let json = try #require(try work.json() as? [String: Any])
        #expect(json["journal"] as? String == "Work", "the journal's own spelling")
        Self.compare(try #require(json["numbers"] as? [String: Any]),
                     try Self.expected(month, first: "2026-03-01", last: "2026-03-31", before: ("2026-02-01", "2026-02-28"), journal: "Work"))
        // All journals' month is another reflection: asked for, not the Work one shown.
        #expect(try month.binary.run(["reflect", "--month", "2026-03"]).status == 0)
        #expect(try server.completions().count == 2)
        #expect(try month.binary.run(["reflect", "--month", "2026-03", "--journal", "Work"]).stdout.contains("nothing was sent"))
        #expect(try server.completions().count == 2)
        let unknown = try month.binary.run(["reflect", "--week", "--journal", "Nope"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no journal named \"Nope\""), "\(unknown.stderr)")
    }

    @Test func dryRunPrintsTheNumbersAndTheMessagesAndSendsNothing() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let result = try month.binary.run(["reflect", "--week", "2026-03-10", "--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("week 2026-W11 (Monday 9 March to Sunday 15 March 2026), all journals"), "\(result.stdout)")
        #expect(result.stdout.contains("nothing was sent") && result.stdout.contains("[system]") && result.stdout.contains("[user]"))
        #expect(result.stdout.contains("About ") && result.stdout.contains("input tokens"))
        #expect(result.stdout.contains("\"enum\":[") && result.stdout.contains("\"cited\""), "the schema's enum of entry ids")
        let json = try #require(try month.binary.run(["reflect", "--week", "2026-03-10", "--dry-run", "--json"]).json() as? [String: Any])
        #expect(json["sent"] as? Bool == false)
        #expect((json["estimatedInputTokens"] as? Int ?? .max) <= 1_500)
        #expect(try server.requests().isEmpty, "a dry run makes no request")
        #expect(try month.binary.run(["reflect", "--week", "2026-03-10", "--dry-run"]).stdout.contains("nothing was sent"))
        #expect(try server.requests().isEmpty)
    }

    static func valid(_ changes: [String: Any] = [:]) -> String {
        var fields: [String: Any] = ["narrative": "A calm week (#ID).", "cited": [], "questions": ["What helped?"], "encouragement": "Keep going."]
        for (key, value) in changes { fields[key] = value }
        return String(decoding: try! JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test func aCitationOutsideThePeriodIsRepairedOnceThenKeptAsFailedWithItsReason() throws {
        // The ids are the fixture's: made once to learn them, then the servers are planned.
        let probe = try TemporaryFolder()
        let learned = try Self.make(probe, server: nil)
        let inside = try Self.entryIds(learned, first: "2026-03-23", last: "2026-03-29")
        let outside = try #require(try Self.entryIds(learned, first: "2026-03-02", last: "2026-03-08").first)
        let broken = Self.valid(["cited": [outside], "narrative": "A calm week (#\(outside))."])

        // Repaired: the second answer cites the week's own entries.
        let folder = try TemporaryFolder()
        let good = Self.valid(["cited": [inside[0], inside[1]], "narrative": "Calm at first (#\(inside[0])), busy later (#\(inside[1]))."])
        let server = try StubChatServer(rules: [.init(responses: [.says(broken), .says(good)])])
        let month = try Self.make(folder, server: server)
        let repaired = try month.binary.run(["reflect", "--week", "2026-03-25", "--json"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        let json = try #require(try repaired.json() as? [String: Any])
        #expect(json["status"] as? String == "valid")
        #expect((json["cited"] as? [[String: Any]])?.map { ($0["entry"] as? Int).map(Int64.init) } == [inside[0], inside[1]])
        let requests = try server.completions()
        #expect(requests.count == 2)
        let reason = "cited entry \(outside) is not an entry of this week"
        #expect(requests.last?.lastUserContent?.contains(reason) == true, "\(requests.last?.lastUserContent ?? "")")
        #expect(requests.last?.lastUserContent?.contains("the narrative cites #\(outside), which is not an entry of this week") == true)
        #expect(requests.last?.messages?.contains { $0.role == "assistant" && $0.content == broken } == true)

        // Broken twice: kept as failed with the reason, none of it shown, exit 1, no third request.
        let other = try TemporaryFolder()
        let stubborn = try StubChatServer(rules: [.init(responses: [.says(broken)], then: .says(broken))])
        let second = try Self.make(other, server: stubborn)
        let failed = try second.binary.run(["reflect", "--week", "2026-03-25"])
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("Reflection failed") && failed.stdout.contains(reason), "\(failed.stdout)")
        #expect(failed.stdout.contains("Ask again: voicejournal reflect --week 2026-03-23 --again"), "\(failed.stdout)")
        #expect(!failed.stdout.contains("A calm week") && failed.stdout.contains("  Entries:"), "the numbers, not the model's words")
        #expect(try stubborn.completions().count == 2)
        let kept = try second.binary.run(["reflect", "--week", "2026-03-25", "--json"])
        #expect(kept.status == 1)
        let shown = try #require(try kept.json() as? [String: Any])
        #expect(shown["status"] as? String == "failed" && shown["narrative"] is NSNull && shown["cited"] is NSNull)
        #expect((shown["reasons"] as? [String])?.contains(reason) == true)
        #expect((shown["numbers"] as? [String: Any])?["entries"] as? Int == inside.count, "the numbers are kept with a failed one too")
        #expect(try stubborn.completions().count == 2)
    }

    @Test func theJSONHasTheNumbersTheNarrativeTheStatusAndTheUsage() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let json = try #require(try month.binary.run(["reflect", "--week", "2026-03-25", "--json"]).json() as? [String: Any])
        #expect(Set(json.keys) == ["id", "period", "journal", "status", "reasons", "numbers", "narrative", "cited", "questions",
                                   "encouragement", "model", "endpoint", "promptVersion", "usage", "createdAt"])
        let period = try #require(json["period"] as? [String: Any])
        #expect(period["kind"] as? String == "week" && period["label"] as? String == "2026-W13")
        #expect(period["start"] as? String == "2026-03-22T23:00:00Z" && period["end"] as? String == "2026-03-29T22:00:00Z", "\(period)")
        #expect(json["journal"] is NSNull && json["status"] as? String == "valid" && (json["reasons"] as? [String])?.isEmpty == true)
        let numbers = try #require(json["numbers"] as? [String: Any])
        #expect(Set(numbers.keys).isSuperset(of: ["entries", "minutesSpoken", "words", "moods", "moodEntries", "averageMoodScore",
                                                 "previousEntries", "previousAverageMoodScore", "trend", "themes", "people",
                                                 "streakDays", "lastEntryAt"]), "\(numbers.keys)")
        #expect(json["narrative"] as? String == "stub narrative")
        #expect((numbers["trend"] as? [[String: Any]])?.allSatisfy { $0.keys.contains("averageMoodScore") } == true)
        let cited = try #require((json["cited"] as? [[String: Any]])?.first)
        #expect(cited["entry"] is Int && cited["createdAt"] is String && (cited["text"] as? String)?.isEmpty == false)
        #expect((json["questions"] as? [String])?.count == 1 && json["encouragement"] as? String == "stub encouragement")
        let usage = try #require(json["usage"] as? [String: Any])
        let sent = try #require(try server.completions().first)
        #expect(usage["requests"] as? Int == 1 && usage["inputTokens"] as? Int == sent.promptTokens
                && usage["outputTokens"] as? Int == sent.completionTokens && usage["cost"] as? Double == 0)
    }

    @Test func aPeriodWithoutEntriesIsSaidInOneLineAndNothingIsSent() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let empty = try month.binary.run(["reflect", "--week", "2026-01-14"])
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout == "No entries in the week 2026-W03 (Monday 12 January to Sunday 18 January 2026), all journals: "
                + "nothing to reflect on, nothing was sent.\n", "\(empty.stdout)")
        let json = try #require(try month.binary.run(["reflect", "--month", "2025-12", "--json"]).json() as? [String: Any])
        #expect(json["status"] as? String == "empty" && (json["numbers"] as? [String: Any])?["entries"] as? Int == 0)
        #expect((json["numbers"] as? [String: Any])?["averageMoodScore"] is NSNull, "a number that is not there is null")
        #expect(try server.requests().isEmpty)
        // Without a chat endpoint named, too.
        let unnamed = VoicejournalBinary(home: month.binary.home, environment: ["TZ": Self.zone, "VOICEJOURNAL_NOW": Self.now])
        let none = try unnamed.run(["reflect", "--week", "2026-01-14"])
        #expect(none.status == 0 && none.stdout.hasPrefix("No entries"), "\(none.stderr)")
    }

    /// Now is Thursday 2 April 2026: this week runs from Monday 30 March, the last one is the
    /// week of the clock change; last month is March.
    @Test(arguments: [
        (["--week"], "week 2026-W14 (Monday 30 March to Sunday 5 April 2026)"),
        (["--week", "last"], "week 2026-W13 (Monday 23 March to Sunday 29 March 2026)"),
        (["--week", "2026-03-10T09:30"], "week 2026-W11 (Monday 9 March to Sunday 15 March 2026)"),
        (["--week", "yesterday"], "week 2026-W14"),
        (["--month", "last"], "March 2026 (2026-03), all journals"),
        (["--month", "2026-02-14"], "February 2026 (2026-02), all journals"),
        (["--month", "this", "--journal", "work"], "April 2026 (2026-04), journal Work"),
    ])
    func theCommandLineNamesAPeriodAsPeopleSayIt(arguments: [String], title: String) throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try Self.make(folder, server: server)
        let result = try month.binary.run(["reflect"] + arguments + ["--dry-run"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(title), "\(result.stdout)")
        #expect(try server.requests().isEmpty)
    }

    @Test(arguments: [
        (["reflect"], "say what to reflect on"),
        (["reflect", "--week", "--month"], "one of --week and --month"),
        (["reflect", "1", "--journal", "Work"], "--journal goes with --week or --month"),
        (["reflect", "--week", "--apply"], "--apply takes an entry's suggestions"),
        (["reflect", "--month", "2026-13"], "--month takes a month: YYYY-MM"),
        (["reflect", "--week", "someday"], "--week takes a day of the week"),
        (["reflect", "abc"], "give an entry's id"),
    ])
    func whatToReflectOnIsExactlyOneThing(arguments: [String], said: String) throws {
        let folder = try TemporaryFolder()
        let binary = VoicejournalBinary(home: folder.path("home"), environment: ["VOICEJOURNAL_CHAT_URL": "http://127.0.0.1:9/v1"])
        #expect(try binary.run(["entry", "add", "--text", "one entry"]).status == 0)
        let result = try binary.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.stderr)")
        #expect(result.stderr.contains(said) && result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// The ids of the entries on local days `first` to `last`, oldest first (SQLite alone).
    static func entryIds(_ month: Month, first: String, last: String) throws -> [Int64] {
        let output = try runTool("python3", ["-c", """
            import os, sqlite3, sys, time
            os.environ["TZ"] = sys.argv[2]; time.tzset()
            c = sqlite3.connect(sys.argv[1])
            print(" ".join(str(r[0]) for r in c.execute("SELECT id FROM entry WHERE date(createdAt, 'localtime') BETWEEN ? AND ? ORDER BY createdAt, id", sys.argv[3:5])))
            """, month.database.path, zone, first, last])
        return output.split(separator: " ").compactMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }
}

extension DateFormatter {
    /// `yyyy-MM-dd` in the tests' zone.
    static let localDay: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: ReflectPeriodTests.zone)
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter
    }()
}

/// An export of part of the journal carries a week's or a month's reflection only when it
/// carries every entry the reflection tells of.
@Suite(.onTestThreads) struct PeriodReflectionExportTests {
    @Test func aPartialExportCarriesOnlyThePeriodReflectionsItHoldsTheEntriesOf() throws {
        let folder = try TemporaryFolder()
        let server = try StubChatServer()
        let month = try ReflectPeriodTests.make(folder, server: server)
        #expect(try month.binary.run(["reflect", "--month", "2026-03"]).status == 0)
        #expect(try month.binary.run(["reflect", "--month", "2026-03", "--journal", "Work"]).status == 0)
        func reflections(_ arguments: [String]) throws -> [[String: Any]] {
            let result = try month.binary.run(["export", "--format", "json"] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            let tables = try #require((try result.json() as? [String: Any])?["tables"] as? [[String: Any]])
            return (tables.first { $0["name"] as? String == "reflection" }?["rows"] as? [[String: Any]]) ?? []
        }
        #expect(try reflections([]).count == 2)
        let work = try reflections(["--journal", "Work"])
        #expect(work.count == 1 && (work.first?["fields"] as? String)?.contains("\"journal\":\"Work\"") == true, "\(work)")
        #expect(try reflections(["--journal", "Personal"]).isEmpty)
        #expect(try reflections(["--since", "2026-03-01", "--until", "2026-03-31"]).count == 2)
        #expect(try reflections(["--since", "2026-03-10"]).isEmpty)
    }
}
