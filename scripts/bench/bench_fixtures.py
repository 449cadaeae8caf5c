"""Fixtures shared by the scripts/bench/bench-* scripts (standard library only), so that two scripts
that measure the same thing measure it on the same data.

Imported by the scripts' inline Python: `sys.path.insert(0, <scripts folder>)`.
"""
import datetime, itertools, json, math, random, struct, subprocess, sys, time
from pathlib import Path

SEARCH_JOURNALS = ("Work", "Travel", "Dreams")


def search_vocabulary():
    """The 5,000-word vocabulary of the search journals, ranked, and its cumulative weights
    (1/rank, Zipf-like): real words at the ranks the queries need, made-up syllable words
    elsewhere. Fixed seed: the same every run."""
    real = ("the and i to a of was it in that we my is for on with but so had at this just about "
            "really then me like she he they day her went good time back home think know one all out "
            "there what were up when get some them would little today work still very morning night "
            "going could because people after how our did thing made much see over first never long around").split()
    placed = {13: "coffee", 120: "garden", 150: "rain", 3000: "lighthouse"}
    syllables = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]
    made = random.Random(7)
    vocabulary, taken, spare = [], set(placed.values()), iter(real)
    for rank in range(1, 5001):
        word = placed.get(rank) or next(spare, None)
        while word is None or (word in taken and rank not in placed):
            word = "".join(made.choice(syllables) for _ in range(made.randint(2, 3)))
        taken.add(word)
        vocabulary.append(word)
    weights = list(itertools.accumulate(1 / rank for rank in range(1, len(vocabulary) + 1)))
    return vocabulary, weights


def add_long_transcripts(vj, home, count, words):
    """`count` voice entries in a new journal in `home` (made by the binary, `vj(home,
    *arguments)`), each with one transcript of `words` words drawn from the search
    vocabulary (about a third of them start with w), in segments of 30 words, 12 s each,
    written through SQL. Fixed seed. Returns the open connection (autocommit)."""
    import sqlite3
    vj(home, "journal", "create", "Work")
    vocabulary, weights = search_vocabulary()
    # Every third word is one of the vocabulary's words with a w (was, we, with, went…):
    # a prefix search for w* then matches about a third of a long transcript.
    w_words = [word for word in vocabulary if word.startswith("w")]
    w_weights = list(itertools.accumulate(1 / (rank + 1) for rank in range(len(w_words))))
    pick = random.Random(36)
    db = sqlite3.connect(Path(home) / "voicejournal.sqlite", isolation_level=None)
    journal = db.execute("SELECT id FROM journal WHERE name = 'Work'").fetchone()[0]
    db.execute("BEGIN")
    for i in range(1, count + 1):
        said = pick.choices(vocabulary, cum_weights=weights, k=words)
        said[::3] = pick.choices(w_words, cum_weights=w_weights, k=len(said[::3]))
        segments = [{"start": k * 12.0, "end": k * 12.0 + 12, "text": " ".join(said[k * 30:k * 30 + 30])}
                    for k in range((words + 29) // 30)]
        db.execute("INSERT INTO entry (id, journalId, kind, title, content, createdAt) "
                   "VALUES (?, ?, 'voice', NULL, '', '2024-01-01 00:00:00.000')", (i, journal))
        db.execute("INSERT INTO recording (id, path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, "
                   "modifiedNanoseconds, state, entryId, createdAt) VALUES (?1, '/audio/' || ?1 || '.flac', "
                   "printf('%064x', ?1), ?2, 16000, 1, 'flac', 0, 0, 'complete', ?1, '2024-01-01 00:00:00.000')",
                   (i, len(segments) * 12.0))
        db.execute("INSERT INTO transcript (id, recordingId, text, language, model, segments, createdAt) "
                   "VALUES (?1, ?1, ?2, 'en', 'whisper-1', ?3, '2024-01-01 00:00:00.000')",
                   (i, " ".join(s["text"] for s in segments), json.dumps(segments)))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def make_search_journal(vj, home, count):
    """A journal of `count` voice entries in `home`: the journals are made by the binary
    (`vj(home, *arguments)` runs it), so the file carries its migrations; the entries are
    written through SQL for speed. One transcript of about 120 words each, from a fixed
    5,000-word vocabulary with weight 1/rank (Zipf-like), so "the" is in every transcript,
    "coffee" in about 64 %, "garden" and "rain" together in about 1 %, "lighthouse" in
    0.4 %. Fixed seeds: the same journal every run. Returns the open connection (autocommit),
    the first entry id written and the seconds the filling took."""
    import sqlite3
    for name in SEARCH_JOURNALS:
        vj(home, "journal", "create", name)
    vocabulary, weights = search_vocabulary()
    moods = ["happy", "grateful", "excited", "neutral", "sad", "anxious", "stressed", "angry"]
    themes = ["personal", "work", "relationships", "family", "health", "goals", "hobbies", "school"]

    db = sqlite3.connect(Path(home) / "voicejournal.sqlite", isolation_level=None)
    db.execute("INSERT OR IGNORE INTO journal (name, createdAt) VALUES ('Personal', '2020-01-01 00:00:00.000')")
    journal_ids = [db.execute("SELECT id FROM journal WHERE name = ?", (name,)).fetchone()[0]
                   for name in ("Personal", *SEARCH_JOURNALS)]
    journal_weights = list(itertools.accumulate([60, 25, 10, 5]))
    pick = random.Random(20240610)
    first = (db.execute("SELECT coalesce(max(id), 0) FROM entry").fetchone()[0] + 1)
    start = time.perf_counter()
    db.execute("BEGIN")
    base, span = datetime.datetime(2020, 1, 1), 5 * 365 * 86400
    for batch in range(0, count, 5000):
        rows = []
        for i in range(batch, min(batch + 5000, count)):
            words = pick.choices(vocabulary, cum_weights=weights, k=120)
            created = (base + datetime.timedelta(seconds=span * i // count)).strftime("%Y-%m-%d %H:%M:%S.000")
            segments = json.dumps([{"start": k * 12.0, "end": k * 12.0 + 12, "text": " ".join(words[k * 30:k * 30 + 30])}
                                   for k in range(4)])
            rows.append((first + i, pick.choices(journal_ids, cum_weights=journal_weights)[0], pick.choice(moods),
                         pick.choice(themes), created, " ".join(words).capitalize() + ".", segments))
        db.executemany("INSERT INTO entry (id, journalId, kind, title, content, mood, theme, createdAt) "
                       "VALUES (?, ?, 'voice', NULL, '', ?, ?, ?)", [r[:5] for r in rows])
        db.executemany("INSERT INTO recording (id, path, sha256, durationSeconds, sampleRate, channels, format, sizeBytes, "
                       "modifiedNanoseconds, state, entryId, createdAt) "
                       "VALUES (?1, '/audio/' || ?1 || '.flac', printf('%064x', ?1), 48.0, 16000, 1, 'flac', 768000, 0, "
                       "'complete', ?1, ?2)", [(r[0], r[4]) for r in rows])
        db.executemany("INSERT INTO transcript (id, recordingId, text, language, model, segments, createdAt) "
                       "VALUES (?1, ?1, ?2, 'en', 'whisper-1', ?3, ?4)", [(r[0], r[5], r[6], r[4]) for r in rows])
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db, first, time.perf_counter() - start


def make_tones(folder, count):
    """`count` distinct one-second 16 kHz mono WAV tones in `folder` (distinct content: no
    deduplication shortcut); returns their paths, sorted."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        frames = b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * (200 + i) * n / 16000))) for n in range(16000))
        header = b"RIFF" + struct.pack("<I", 36 + len(frames)) + b"WAVEfmt " + struct.pack("<IHHIIHH", 16, 1, 1, 16000, 32000, 2, 16)
        (folder / f"clip{i:03d}.wav").write_bytes(header + b"data" + struct.pack("<I", len(frames)) + frames)
    return sorted(folder.iterdir())


def start_stub(delay, log, key_env="BENCH_KEY"):
    """bench_server.py (beside this file) on a free loopback port, answering every request after
    `delay` seconds and logging each to `log`; the key it accepts is in the environment
    variable `key_env`. Returns the process and its port."""
    stub = subprocess.Popen([sys.executable, str(Path(__file__).resolve().parent / "bench_server.py"), "--port", "0",
                             "--delay", str(delay), "--key-env", key_env, "--log", str(log)],
                            stdout=subprocess.PIPE, text=True)
    return stub, int(stub.stdout.readline())


def logged_requests(log):
    """Every request the stub logged so far, one dict each."""
    log = Path(log)
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
