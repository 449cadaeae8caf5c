#!/usr/bin/env python3
"""bench-reflect's work (see scripts/bench/bench-reflect): the journal, the server, both paths,
the numbers, the table, and the section of docs/benchmarks.md. Standard library only.

Environment: BENCH_ENTRIES, BENCH_MODEL (a GGUF, or empty for the server's default),
BENCH_DOCS (docs/benchmarks.md to write, or empty), BENCH_COMMAND, BENCH_WORK, BENCH_BINARY,
BENCH_CHAT_PYTHON, BENCH_SERVER.
"""
import json
import os
import random
import re
import statistics
import subprocess
import sys
import textwrap
import time
import urllib.request
from datetime import date, datetime, timedelta
from pathlib import Path

SEED = 20261129
MOODS = ["happy", "grateful", "excited", "neutral", "sad", "anxious", "stressed", "angry"]
VALENCE = {"happy": 1, "grateful": 1, "excited": 1, "neutral": 0, "sad": -1, "anxious": -1, "stressed": -1, "angry": -1}
THEMES = ["personal", "work", "relationships", "family", "health", "goals", "hobbies", "school"]
PEOPLE = [("Anna", "friend"), ("Tom", "brother"), ("Maria", "colleague"), ("David", "partner"), ("Priya", "friend"),
          ("Sam", "son")]
SECTION = "Reflection with the local chat model"

# What an entry says: its mood in plain words, its theme's events (a {p} is one of its people),
# and the talk around them. Written for the benchmark; a label is what the words say.
MOOD_LINES = {
    "happy": ["I'm honestly really happy tonight.", "It was just a good day, a genuinely good day.",
              "I kept smiling all the way home.", "Everything felt light and easy for once.",
              "I laughed more today than I have in ages."],
    "grateful": ["I feel so grateful for the people around me.", "I'm thankful, really thankful, that it all worked out.",
                 "I keep thinking how lucky I am to have this.", "I want to remember to say thank you more often.",
                 "So much went right that I didn't earn, and I'm grateful for it."],
    "excited": ["I'm so excited I can barely sit still.", "I can't wait for next week, it's going to be amazing!",
                "My heart is racing a bit just talking about it.", "This is the thing I've been hoping for all year!",
                "I keep planning it in my head because I'm thrilled."],
    "neutral": ["It was an ordinary day, nothing special.", "I don't feel much either way about it.",
                "Things are fine, just regular.", "Nothing really stood out, it was okay.",
                "It was a normal sort of day from start to finish."],
    "sad": ["I feel sad tonight and I'm not sure why.", "I cried a little in the car on the way back.",
            "Everything feels heavy and kind of grey.", "I miss how things used to be.",
            "I just feel low and lonely this evening."],
    "anxious": ["I'm anxious about tomorrow and I can't stop thinking about it.", "My stomach has been in knots all day.",
                "I keep worrying that something will go wrong.", "I couldn't sleep last night because I was so nervous.",
                "What if it all falls apart, that's what I keep asking myself."],
    "stressed": ["I'm completely stressed out, there's too much to do.", "The deadlines keep piling up and I'm running on empty.",
                 "I feel stretched thin, like I can't catch my breath.", "I had three things due at once and no time for any of them.",
                 "My shoulders are tense from the pressure of it all."],
    "angry": ["I'm really angry about how that went.", "I was furious, honestly, I had to walk away.",
              "It's so unfair and it makes my blood boil.", "I snapped at the end because I'd had enough.",
              "I'm still fuming about the way I was treated."],
}
THEME_LINES = {
    "work": ["I had a long meeting with {p} about the new project.", "The quarterly report took most of the afternoon.",
             "My manager asked me to lead the next release.", "{p} and I went through the budget line by line."],
    "family": ["I called {p} after dinner to catch up.", "We had a family lunch at my parents' place.",
               "The kids needed help with their homework again.", "{p} came round and we looked at old family photos."],
    "relationships": ["{p} and I went for coffee and talked for hours.", "I've been thinking about how I show up for my friends.",
                      "We planned a weekend away together.", "I had a long honest talk with {p} about us."],
    "health": ["I went for a run before work this morning.", "My back has been sore so I finally booked a physio.",
               "I'm trying to sleep earlier and drink more water.", "{p} came with me to the doctor's appointment."],
    "goals": ["I wrote down my plan for the next three months.", "I finished the first chapter of the course I signed up for.",
              "I want to save enough for the trip by summer.", "{p} asked me what I want to have done by the end of the year."],
    "hobbies": ["I spent the evening painting in the spare room.", "I played guitar for an hour and learned a new song.",
                "{p} showed me how to fix the bike chain.", "I baked bread again and this loaf actually rose."],
    "school": ["The exam is on Friday and I've been revising.", "I handed in my essay on the history of the city.",
               "{p} and I studied together in the library.", "The lecture on statistics finally made sense today."],
    "personal": ["I spent some time alone just thinking.", "I cleaned the flat and sorted out my wardrobe.",
                 "I've been trying to be kinder to myself.", "{p} reminded me to take things one day at a time."],
}
OPENERS = ["Okay, it's {day} evening and I'm just going to talk for a minute.", "Right, quick one tonight.",
           "So, {day}.", "Hi, it's me again, {day} night.", "Okay, recording this before I forget."]
CLOSERS = ["Anyway, that's about it.", "Okay, I'll stop there.", "That's all for today.", "Right, bed now."]
FILLERS = ["So, ", "Um, ", "Yeah, ", "I mean, ", "You know, ", "And ", ""]


def env(name):
    return os.environ.get(name, "")


def sentences_for(rng, mood, theme, people, day):
    """An entry's sentences, spoken in order; each of its people is named at least once."""
    names = {name for name, _ in PEOPLE}

    def line(text):
        """`text` as it is said: now and then after a filler word ("Um, the exam is on Friday.")."""
        filler = rng.choice(FILLERS)
        first = text.split()[0].rstrip(",'s")
        if filler and first not in names and first != "I" and not text.startswith("I'"):
            text = text[0].lower() + text[1:]
        return filler + text

    named = [t for t in THEME_LINES[theme] if "{p}" in t]
    plain = [t for t in THEME_LINES[theme] if "{p}" not in t]
    events = rng.sample(plain, 2)
    for person in people:
        events.append(rng.choice(named).replace("{p}", person))
    rng.shuffle(events)
    feelings = rng.sample(MOOD_LINES[mood], 3)
    body = [events[0], feelings[0], *events[1:], feelings[1], feelings[2]]
    return [rng.choice(OPENERS).format(day=day)] + [line(s) for s in body] + [rng.choice(CLOSERS)]


def timed(rng, sentences, start=0.4):
    """Segments with word timings, as a transcription server gives them: 0.25-0.45 s a word,
    a pause between sentences, a segment a sentence. Returns (segments, each sentence's times)."""
    clock, segments, times = start, [], []
    for text in sentences:
        words, first = [], clock
        for word in text.split():
            length = rng.uniform(0.25, 0.45)
            words.append({"word": " " + word, "start": round(clock, 3), "end": round(clock + length, 3),
                          "probability": 0.9})
            clock += length + rng.uniform(0.0, 0.08)
        end = words[-1]["end"]
        segments.append({"start": round(first, 3), "end": end, "text": " " + text, "words": words})
        times.append((round(first, 3), end))
        clock += rng.uniform(0.4, 1.2)
    return segments, times


def make_entries(count):
    rng = random.Random(SEED)
    entries = []
    first_day = datetime(2026, 9, 1, 21, 0)
    for index in range(count):
        mood = MOODS[index % len(MOODS)]
        theme = THEMES[(index * 3 + index // len(MOODS)) % len(THEMES)]
        people = rng.sample([name for name, _ in PEOPLE], rng.choice([0, 0, 1, 1, 2]))
        when = first_day + timedelta(days=index, minutes=rng.randrange(0, 90))
        sentences = sentences_for(rng, mood, theme, people, when.strftime("%A"))
        segments, times = timed(rng, sentences)
        entries.append({"id": index + 1, "mood": mood, "theme": theme, "people": people, "createdAt": when,
                        "sentences": sentences, "times": times, "segments": segments})
    return entries


def make_long_entry(entries):
    """One entry of every entry's sentences in turn (a long evening's talk): too long for a
    2048-token context, so voicejournal reads it in parts."""
    rng = random.Random(SEED + 1)
    sentences = [sentence for entry in entries for sentence in entry["sentences"]]
    segments, times = timed(rng, sentences)
    return {"id": len(entries) + 1, "mood": None, "theme": None, "people": sorted({p for e in entries for p in e["people"]}),
            "createdAt": entries[-1]["createdAt"] + timedelta(days=1), "sentences": sentences, "times": times, "segments": segments}


def run(binary, home, args, env_extra=None, check=True):
    environment = dict(os.environ, **(env_extra or {}))
    started = time.perf_counter()
    result = subprocess.run([binary, "--home", str(home)] + args, capture_output=True, text=True, env=environment)
    seconds = time.perf_counter() - started
    if check and result.returncode != 0:
        sys.exit(f"bench-reflect: voicejournal {' '.join(args)} exited {result.returncode}: {result.stderr.strip()}")
    return result, seconds


def stamp(when):
    return when.strftime("%Y-%m-%d %H:%M:%S.000")


def build_journal(binary, work, entries, environment):
    """The journal through the command line: people added, then the entries' rows put into an
    export of it and imported into a new home. Returns the new home."""
    seed_home, home = work / "seed-home", work / "home"
    run(binary, seed_home, ["journal", "create", "Days", "--description", "Evenings, spoken"], environment)
    for name, relationship in PEOPLE:
        run(binary, seed_home, ["person", "add", name, "--relationship", relationship], environment)
    run(binary, seed_home, ["export", "--format", "json", "--out", str(work / "seed")], environment)
    archive = json.loads((work / "seed" / "voicejournal.json").read_text())
    tables = {table["name"]: table for table in archive["tables"]}
    journal = next(row["id"] for row in tables["journal"]["rows"] if row["name"] == "Days")
    rows = {"entry": [], "recording": [], "transcript": []}
    for entry in entries:
        created = stamp(entry["createdAt"])
        duration = entry["segments"][-1]["end"] + 0.5
        rows["entry"].append({"id": entry["id"], "journalId": journal, "kind": "voice", "content": "", "createdAt": created})
        rows["recording"].append({
            "id": entry["id"], "path": f"/nonexistent/bench-reflect/entry-{entry['id']}.wav",
            "sha256": f"{entry['id']:064x}", "durationSeconds": duration, "sampleRate": 16000, "channels": 1,
            "format": "wav", "sizeBytes": int(duration * 32000) + 44, "state": "complete", "entryId": entry["id"],
            "createdAt": created})
        rows["transcript"].append({
            "id": entry["id"], "recordingId": entry["id"], "text": " ".join(entry["sentences"]), "language": "en",
            "model": "whisper-1", "segments": json.dumps(entry["segments"]), "createdAt": created})
    for name, new in rows.items():
        if name in tables:
            tables[name]["rows"].extend(new)
        else:
            archive["tables"].append({"name": name, "rows": new})
    path = work / "journal.json"
    path.write_text(json.dumps(archive))
    run(binary, home, ["import", str(path)], environment)
    return home


def start_server(python, server, model, log, extra=()):
    arguments = [python, server, "--port", "0", "--exit-with-stdin"] + (["--model", model] if model else []) + list(extra)
    process = subprocess.Popen(arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
    line = process.stdout.readline().strip()
    if not line.isdigit():
        process.kill()
        sys.exit(f"bench-reflect: chat-server did not start (first line {line!r}); see its log")
    port = int(line)
    deadline = time.time() + 60
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=5) as response:
                name = json.load(response)["data"][0]["id"]
                return process, port, name
        except OSError:
            if time.time() > deadline:
                process.kill()
                sys.exit("bench-reflect: chat-server never listed its model")
            time.sleep(0.2)


def post(url, body):
    data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=600) as response:
        answer = json.load(response)
    return answer, time.perf_counter() - started


def schema_problems(value, schema, where="answer"):
    """Where `value` breaks `schema` (the keywords a reflection's schema uses)."""
    problems = []
    kind = schema.get("type")
    types = {"object": dict, "array": list, "string": str, "integer": int}
    if kind in types and (not isinstance(value, types[kind]) or isinstance(value, bool)):
        return [f"{where} is not {kind}"]
    if "enum" in schema and value not in schema["enum"]:
        problems.append(f"{where} {value!r} is not in its enum")
    if kind == "string":
        if len(value) < schema.get("minLength", 0) or len(value) > schema.get("maxLength", 10 ** 9):
            problems.append(f"{where} has {len(value)} characters")
    if kind == "array":
        if len(value) < schema.get("minItems", 0) or len(value) > schema.get("maxItems", 10 ** 9):
            problems.append(f"{where} has {len(value)} items")
        for index, item in enumerate(value):
            problems += schema_problems(item, schema.get("items", {}), f"{where}[{index}]")
    if kind == "object":
        properties = schema.get("properties", {})
        problems += [f"{where}.{key} is missing" for key in schema.get("required", []) if key not in value]
        if schema.get("additionalProperties") is False:
            problems += [f"{where}.{key} is not a field" for key in value if key not in properties]
        for key, item in value.items():
            if key in properties:
                problems += schema_problems(item, properties[key], f"{where}.{key}")
    return problems


def names(name, text):
    """Whether `name` is a word of `text` ("Anna", "Anna's"; not "Annabel"), as voicejournal checks."""
    words = [w[:-2] if w.endswith("'s") else w for w in re.findall(r"[\w'-]+", text.lower())]
    wanted = re.findall(r"[\w'-]+", name.lower())
    return bool(wanted) and any(words[i:i + len(wanted)] == wanted for i in range(len(words) - len(wanted) + 1))


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    position = (len(ordered) - 1) * fraction
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def pct(part, whole):
    return f"{100 * part / whole:.0f} % ({part}/{whole})" if whole else "n/a"


def main():
    count = int(env("BENCH_ENTRIES") or 40)
    work, binary = Path(env("BENCH_WORK")), env("BENCH_BINARY")
    environment = {"XDG_CONFIG_HOME": str(work / "config"), "NO_COLOR": "1", "TZ": "UTC"}
    entries = make_entries(count)
    load_before = os.getloadavg()[0]
    print(f"bench-reflect: {count} entries, {sum(len(e['sentences']) for e in entries)} sentences, "
          f"{sum(len(' '.join(e['sentences']).split()) for e in entries)} words", file=sys.stderr)
    long_entry = make_long_entry(entries)
    home = build_journal(binary, work, entries + [long_entry], environment)

    log = open(work / "server.log", "w")
    server, port, model = start_server(env("BENCH_CHAT_PYTHON"), env("BENCH_SERVER"), env("BENCH_MODEL"), log)
    base = f"http://127.0.0.1:{port}/v1"
    environment["VOICEJOURNAL_CHAT_URL"] = base
    environment["VOICEJOURNAL_CHAT_MODEL"] = model
    answers = open(work / "answers.jsonl", "w")
    try:
        bodies = {}
        for entry in entries:
            result, _ = run(binary, home, ["reflect", str(entry["id"]), "--dry-run", "--json"], environment)
            plan = json.loads(result.stdout)
            bodies[entry["id"]] = plan["body"]
        # One request first, not counted: the model's first answer pays for warming its caches.
        post(base + "/chat/completions", bodies[entries[-1]["id"]])
        direct, mine = {}, {}

        def do_direct(entry):
            try:
                answer, seconds = post(base + "/chat/completions", bodies[entry["id"]])
            except OSError as error:  # an HTTP error too: kept as an answer that is not one
                answer, seconds = {"error": str(error)}, float("nan")
            direct[entry["id"]] = (answer, seconds)
            answers.write(json.dumps({"path": "direct", "entry": entry["id"], "seconds": seconds, "answer": answer}) + "\n")

        def do_mine(entry):
            result, seconds = run(binary, home, ["reflect", str(entry["id"]), "--json"], environment, check=False)
            if result.returncode not in (0, 1):
                sys.exit(f"bench-reflect: reflect {entry['id']} exited {result.returncode}: {result.stderr.strip()}")
            mine[entry["id"]] = (json.loads(result.stdout), seconds)
            answers.write(json.dumps({"path": "voicejournal", "entry": entry["id"], "seconds": seconds,
                                      "reflection": mine[entry["id"]][0]}) + "\n")

        # Entry by entry, the two paths back to back, which goes first alternating. llama.cpp
        # keeps the last prompt's cache, so the second of two same prompts would skip reading
        # it: a one-token request of other words goes before each, and both start alike.
        flush = {"messages": [{"role": "user", "content": "Say ok."}], "max_tokens": 1, "temperature": 0}
        started = time.perf_counter()
        for index, entry in enumerate(entries):
            for path in ((do_mine, do_direct) if index % 2 == 0 else (do_direct, do_mine)):
                post(base + "/chat/completions", flush)
                path(entry)
            print(f"\rbench-reflect: entry {index + 1}/{count}", end="", file=sys.stderr)
        print(f"\rbench-reflect: both paths done in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    finally:
        stop_server(server)
        answers.close()
        log.close()

    long_run = reflect_long(binary, home, work, environment, long_entry)
    numbers = measure(entries, bodies, direct, mine)
    numbers["long"] = long_run
    numbers["load"] = (load_before, os.getloadavg()[0])
    numbers["highlights_met"] = numbers["highlights_met"] and long_run["highlights_good"]
    numbers["invented_met"] = numbers["invented_met"] and long_run["invented"] == 0
    numbers["goals_met"] = numbers["overhead_met"] and numbers["highlights_met"] and numbers["invented_met"]
    table = render(numbers, count, model)
    print(table)
    (work / "numbers.json").write_text(json.dumps(numbers, indent=1, default=str))
    if env("BENCH_DOCS"):
        write_docs(Path(env("BENCH_DOCS")), numbers, table, count, model, entries)
    return 0 if numbers["goals_met"] else 1


def stop_server(server):
    server.stdin.close()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.terminate()
        server.wait()


def reflect_long(binary, home, work, environment, entry, context=2048):
    """The long entry against a server started with --context 2048 and `[chat] context` to
    match: read in parts, then as a whole. Its highlights and people checked as the others'."""
    config = work / "config" / "voicejournal" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(f"[chat]\ncontext = {context}\n")
    with open(work / "server-long.log", "w") as log:
        server, port, _ = start_server(env("BENCH_CHAT_PYTHON"), env("BENCH_SERVER"), env("BENCH_MODEL"), log,
                                       ["--context", str(context)])
        try:
            environment = dict(environment, VOICEJOURNAL_CHAT_URL=f"http://127.0.0.1:{port}/v1")
            plan, _ = run(binary, home, ["reflect", str(entry["id"]), "--dry-run", "--json"], environment)
            result, wall = run(binary, home, ["reflect", str(entry["id"]), "--json"], environment, check=False)
        finally:
            stop_server(server)
    config.unlink()
    if result.returncode not in (0, 1):
        sys.exit(f"bench-reflect: reflect {entry['id']} exited {result.returncode}: {result.stderr.strip()}")
    reflection = json.loads(result.stdout)
    text = " ".join(entry["sentences"])
    good = all(h["text"] == entry["sentences"][h["sentence"] - 1] and abs(h["start"] - entry["times"][h["sentence"] - 1][0]) < 0.001
               for h in reflection["highlights"] or [])
    return {"sentences": len(entry["sentences"]), "context": context, "parts": json.loads(plan.stdout)["parts"],
            "estimated": json.loads(plan.stdout)["estimatedInputTokens"], "status": reflection["status"],
            "reasons": reflection["reasons"], "requests": reflection["usage"]["requests"], "seconds": wall,
            "highlights": len(reflection["highlights"] or []), "highlights_good": good,
            "invented": sum(1 for p in reflection["people"] or [] if not names(p, text)),
            "version": reflection["promptVersion"]}


def measure(entries, bodies, direct, mine):
    n = len(entries)
    numbers = {"n": n}
    raw_valid = raw_invented = raw_named = raw_mood = raw_valence = raw_theme = raw_highlights_bad = raw_highlights = 0
    vj_first = vj_valid = vj_mood = vj_valence = vj_theme = vj_withheld = vj_invented = vj_people_found = 0
    highlights = highlights_good = 0
    vj_times, direct_times, overheads, own, single_direct = [], [], [], [], []
    people_named = sum(len(e["people"]) for e in entries)
    failed_reasons = []
    raw_moods, vj_moods = {}, {}
    for entry in entries:
        text = " ".join(entry["sentences"])
        answer, seconds = direct[entry["id"]]
        direct_times.append(seconds)
        content = (answer.get("choices") or [{}])[0].get("message", {}).get("content") or ""
        schema = bodies[entry["id"]]["response_format"]["schema"]
        try:
            # As voicejournal reads an answer: a raw line break inside a string (which
            # llama.cpp's grammar lets a model write) is taken as a space, not as broken JSON.
            raw = json.loads(content, strict=False)
        except ValueError:
            raw = None
        if raw is not None and not schema_problems(raw, schema):
            raw_valid += 1
        if isinstance(raw, dict):
            listed = [p for p in raw.get("people", []) if isinstance(p, str)]
            raw_named += len(listed)
            raw_invented += sum(1 for p in listed if not names(p, text))
            raw_mood += raw.get("mood") == entry["mood"]
            raw_moods[str(raw.get("mood"))] = raw_moods.get(str(raw.get("mood")), 0) + 1
            raw_valence += VALENCE.get(raw.get("mood"), 9) == VALENCE[entry["mood"]]
            raw_theme += entry["theme"] in (raw.get("themes") or [])
            for number in raw.get("highlights") or []:
                raw_highlights += 1
                raw_highlights_bad += not (isinstance(number, int) and 1 <= number <= len(entry["sentences"]))

        reflection, wall = mine[entry["id"]]
        vj_times.append(wall)
        usage = reflection["usage"]
        if reflection["status"] == "valid":
            vj_valid += 1
            vj_first += usage["requests"] == 1
            vj_mood += reflection["mood"] == entry["mood"]
            vj_moods[str(reflection["mood"] or "withheld")] = vj_moods.get(str(reflection["mood"] or "withheld"), 0) + 1
            vj_valence += reflection["mood"] is not None and VALENCE[reflection["mood"]] == VALENCE[entry["mood"]]
            vj_withheld += reflection["mood"] is None
            vj_theme += entry["theme"] in reflection["themes"]
            vj_invented += sum(1 for p in reflection["people"] if not names(p, text))
            vj_people_found += sum(1 for p in reflection["people"] if p in entry["people"])
            for highlight in reflection["highlights"]:
                highlights += 1
                number = highlight["sentence"]
                ok = 1 <= number <= len(entry["sentences"])
                if ok:
                    start, end = entry["times"][number - 1]
                    ok = (highlight["text"] == entry["sentences"][number - 1] and abs(highlight["start"] - start) < 0.001
                          and abs(highlight["end"] - end) < 0.001 and highlight.get("play", "").startswith(f"voicejournal play {entry['id']}"))
                highlights_good += ok
        else:
            failed_reasons += reflection["reasons"]
        if usage["requests"] == 1:
            overheads.append(wall - seconds)
            single_direct.append(seconds)
            own.append(wall - usage["seconds"])
    numbers.update(raw_valid=raw_valid, raw_invented=raw_invented, raw_named=raw_named, raw_mood=raw_mood,
                   raw_valence=raw_valence, raw_theme=raw_theme, raw_highlights=raw_highlights,
                   raw_highlights_bad=raw_highlights_bad, vj_first=vj_first, vj_valid=vj_valid, vj_mood=vj_mood,
                   vj_valence=vj_valence, vj_withheld=vj_withheld, vj_theme=vj_theme, vj_invented=vj_invented,
                   vj_people_found=vj_people_found, people_named=people_named, highlights=highlights,
                   highlights_good=highlights_good, failed_reasons=failed_reasons, raw_moods=raw_moods, vj_moods=vj_moods,
                   vj_median=statistics.median(vj_times), vj_p90=percentile(vj_times, 0.9),
                   direct_median=statistics.median(direct_times), direct_p90=percentile(direct_times, 0.9),
                   vj_requests=sum(mine[e["id"]][0]["usage"]["requests"] for e in entries), single=len(overheads))
    if overheads:
        numbers["overhead_median"] = statistics.median(overheads)
        numbers["overhead_mean"] = statistics.mean(overheads)
        numbers["single_direct_median"] = statistics.median(single_direct)
        numbers["own_median"] = statistics.median(own)
        allowed = 0.05 * numbers["single_direct_median"] + 0.050
        numbers["overhead_allowed"] = allowed
        numbers["overhead_met"] = numbers["overhead_median"] <= allowed
    else:
        numbers["overhead_met"] = False
    numbers["highlights_met"] = highlights_good == highlights
    numbers["invented_met"] = vj_invented == 0
    numbers["goals_met"] = numbers["overhead_met"] and numbers["highlights_met"] and numbers["invented_met"]
    return numbers


def render(x, count, model):
    def met(flag):
        return "met" if flag else "MISSED"
    rows = [
        ("answers schema-valid", f"first answer: {pct(x['raw_valid'], count)}",
         f"first answer passes every check: {pct(x['vj_first'], count)}; after one repair: {pct(x['vj_valid'], count)}"),
        ("highlights valid (the entry's own sentence and times)", f"in range: {pct(x['raw_highlights'] - x['raw_highlights_bad'], x['raw_highlights'])}",
         f"{pct(x['highlights_good'], x['highlights'])} — {met(x['highlights_met'])} (goal 100 %)"),
        ("people invented (listed, not in the entry)", f"{x['raw_invented']} of {x['raw_named']} names listed",
         f"{x['vj_invented']} — {met(x['invented_met'])} (goal 0); {x['vj_people_found']} of {x['people_named']} named people found"),
        ("mood agrees with the label", f"{pct(x['raw_mood'], count)}; same side (glad/neutral/low): {pct(x['raw_valence'], count)}",
         f"{pct(x['vj_mood'], count)}; same side: {pct(x['vj_valence'], count)}; withheld as contradicting the words: {x['vj_withheld']}"),
        ("theme among the themes given", pct(x["raw_theme"], count), pct(x["vj_theme"], count)),
        ("time per reflection, median / p90", f"{x['direct_median']:.2f} s / {x['direct_p90']:.2f} s (one request)",
         f"{x['vj_median']:.2f} s / {x['vj_p90']:.2f} s ({x['vj_requests']} requests for {count} entries)"),
    ]
    if x["single"]:
        rows.append(("overhead over the same request (entries answered in one request)",
                     f"median request {x['single_direct_median']:.2f} s ({x['single']} entries)",
                     f"median {x['overhead_median'] * 1000:+.0f} ms, mean {x['overhead_mean'] * 1000:+.0f} ms; allowed "
                     f"{x['overhead_allowed'] * 1000:.0f} ms (5 % + 50 ms) — {met(x['overhead_met'])}; voicejournal's own "
                     f"time beside the server's: median {x['own_median'] * 1000:.0f} ms"))
    long = x.get("long")
    if long:
        outcome = long["status"] + ("" if long["status"] == "valid" else " (" + "; ".join(long["reasons"][:2]) + ")")
        kept = (f"highlights the entry's own: {'yes' if long['highlights_good'] else 'NO'} ({long['highlights']})"
                if long["highlights"] else "no highlights kept")
        rows.append((f"a long entry ({long['sentences']} sentences) with chat-server --context {long['context']} and [chat] context = {long['context']}",
                     "—", f"planned in {long['parts']} parts; {long['requests']} requests, {long['seconds']:.0f} s: {outcome}; "
                     f"{kept}; people invented: {long['invented']}"))
    lines = [f"| measure ({model}, {count} entries) | direct: the same request, raw answer | voicejournal reflect |", "|---|---|---|"]
    lines += [f"| {a} | {b} | {c} |" for a, b, c in rows]
    return "\n".join(lines)


def write_docs(path, x, table, count, model, entries):
    today = subprocess.run(["date", "+%Y-%m-%d"], capture_output=True, text=True).stdout.strip() or date.today().isoformat()
    anchor = "#" + re.sub(r"[^a-z0-9 -]", "", SECTION.lower()).replace(" ", "-")
    sentences = sum(len(e["sentences"]) for e in entries)
    words = sum(len(" ".join(e["sentences"]).split()) for e in entries)
    kinds = {}
    for reason in x["failed_reasons"]:
        for name, _ in PEOPLE:
            reason = re.sub(rf"\b{name}\b", "a person", reason)
        reason = re.sub(r"\d+", "N", reason)
        kinds[reason] = kinds.get(reason, 0) + 1
    reasons = [f"{reason} ×{times}" for reason, times in sorted(kinds.items(), key=lambda item: -item[1])]
    failed = count - x["vj_valid"]
    def tally(moods):
        return ", ".join(f"{mood} {times}" for mood, times in sorted(moods.items(), key=lambda item: -item[1]))

    def paragraph(text):
        return textwrap.fill(" ".join(text.split()), width=96, break_long_words=False, break_on_hyphens=False)

    long = x["long"]
    header = paragraph(f"""`{env('BENCH_COMMAND')}`, {today}, release build, model **{model}** served by
        `chat-server/chat-server` (llama-cpp-python as it starts it: context 8192, generating on half the cores, one here), on the
        development machine (2 cores; load average {x['load'][0]:.1f} at the start and {x['load'][1]:.1f} at the end,
        other builds sharing the cores). `scripts/bench/bench_reflect.py` makes a journal of {count}
        spoken-style entries ({sentences} sentences, {words} words; fixed seed), each with a labelled mood
        (the eight, {count // 8} each), a theme and 0–2 of the journal's six people, transcribed with word
        timings, imported with `voicejournal import`. For each entry, back to back (which goes first
        alternating, each after a one-token request of other words, so neither finds the prompt in
        llama.cpp's cache): `voicejournal reflect ID --json`, and the same first request (its body from
        `reflect ID --dry-run --json`) POSTed straight to the same server. Then one long entry — every
        entry's sentences in turn, about {long['estimated']} tokens — is reflected against a second server
        started with `--context {long['context']}` (and `[chat] context = {long['context']}`), which voicejournal reads
        in parts.""")
    results = paragraph(f"""The raw answers' moods: {tally(x['raw_moods'])}; the moods voicejournal kept: {tally(x['vj_moods']) or 'none'}.
        Of its reflections {x['vj_valid']} were valid and {failed} failed after their repair{(': the reasons, counted: '
        + '; '.join(reasons[:5])) if reasons else ''}.""")
    goals = paragraph(f"""The overhead is voicejournal's wall time (a new process, the journal read, the request,
        the checks, the row kept) less the direct request's, on the entries it answered in one request;
        the goal is at most 5 % of the request plus 50 ms: **{'met' if x['overhead_met'] else 'missed'}**. Highlights 100 %
        valid and no person invented after the checks: **{'met' if x['highlights_met'] and x['invented_met'] else 'missed'}**.
        What this says about a small model is in [reflection](reflection.md#what-a-small-model-can-do).""")
    body = f"## {SECTION}\n\n{header}\n\n{table}\n\n{results}\n\n{goals}\n"
    text = path.read_text()
    pattern = re.compile(r"^## " + re.escape(SECTION) + r"\n.*?(?=^## |\Z)", re.S | re.M)
    if pattern.search(text):
        text = pattern.sub(lambda _: body + "\n", text, count=1)
    else:
        text = text.rstrip("\n") + "\n\n" + body
    bullet = f"- [{SECTION}]({anchor}) (`scripts/bench/bench-reflect`)"
    if bullet not in text:
        lines = text.split("\n")
        last = max(i for i, line in enumerate(lines) if line.startswith("- [") and "](#" in line)
        lines.insert(last + 1, bullet)
        text = "\n".join(lines)
    path.write_text(text.rstrip("\n") + "\n")
    print(f"bench-reflect: wrote the section \"{SECTION}\" of {path}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
