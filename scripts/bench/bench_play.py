"""The measuring half of scripts/bench/bench-play, run by that script (which makes the WAV, the ALSA
configuration with the `benchfile` and `benchfifo` PCMs, and sets the BENCH_* environment)."""
import hashlib, os, resource, statistics, subprocess, sys, threading, time, wave

BINARY, WORK = os.environ["BENCH_BINARY"], os.environ["BENCH_WORK"]
ROUNDS, PACED_ROUNDS = int(os.environ["BENCH_ROUNDS"]), int(os.environ["BENCH_PACED_ROUNDS"])
SPEED = float(os.environ["BENCH_SPEED"])
PLAYERS = os.environ["BENCH_PLAYERS"].split(",")
FILE = os.path.join(WORK, "play.wav")
GOAL = 1.1

with wave.open(FILE, "rb") as w:
    RATE, CHANNELS, WIDTH, FRAMES = w.getframerate(), w.getnchannels(), w.getsampwidth(), w.getnframes()
AUDIO_BYTES = FRAMES * CHANNELS * WIDTH
SECONDS = FRAMES / RATE


def say(message):
    print(f"bench-play: {message}", file=sys.stderr, flush=True)


def command(player, device):
    if player == "aplay":
        return ["aplay", "-q", "-D", device, FILE]
    return [BINARY, "--home", os.path.join(WORK, "home"), "play", FILE, "--device", device]


def run(player, device):
    """CPU seconds (user + sys) and wall seconds of one run, from getrusage(RUSAGE_CHILDREN)
    around it (microsecond resolution): the only child running meanwhile is this one."""
    errors = os.path.join(WORK, "stderr")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    with open(errors, "wb") as err:
        status = subprocess.run(command(player, device), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err).returncode
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if status != 0:
        sys.exit(f"bench-play: {' '.join(command(player, device))} exited {status}: "
                 f"{open(errors, errors='replace').read().strip()}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def wav_digest():
    digest = hashlib.sha256()
    with wave.open(FILE, "rb") as w:
        while block := w.readframes(1 << 18):
            digest.update(block)
    return digest.hexdigest()


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class Drain(threading.Thread):
    """Reads the FIFO the `benchfifo` PCM writes to at SPEED times real time, as a sound card
    would take the audio (the writer blocks while the pipe is full); counts the bytes."""

    def __init__(self):
        super().__init__(daemon=True)
        self.received = 0

    def run(self):
        pace = RATE * CHANNELS * WIDTH * SPEED  # bytes a second
        step = max(4096, int(pace / 200))       # 5 ms of paced audio a read
        fd = os.open(os.path.join(WORK, "speaker.fifo"), os.O_RDONLY)  # waits for the player
        start = time.monotonic()
        try:
            while chunk := os.read(fd, step):
                self.received += len(chunk)
                ahead = start + self.received / pace - time.monotonic()
                if ahead > 0:
                    time.sleep(ahead)
        finally:
            os.close(fd)


def paced(player):
    drain = Drain()
    drain.start()
    cpu, wall = run(player, "benchfifo")
    drain.join()
    if drain.received != AUDIO_BYTES:
        sys.exit(f"bench-play: {player} wrote {drain.received} bytes into the FIFO, expected {AUDIO_BYTES}")
    return cpu, wall


# Both programs must hand ALSA exactly the file's samples (a player that skipped work would look cheap).
expected = wav_digest()
for player in PLAYERS:
    out = os.path.join(WORK, "speaker.raw")
    if os.path.exists(out):
        os.remove(out)
    run(player, "benchfile")
    size = os.path.getsize(out)
    if size != AUDIO_BYTES or file_digest(out) != expected:
        sys.exit(f"bench-play: {player} wrote {size} bytes that are not the WAV's {AUDIO_BYTES} bytes of samples")
    os.remove(out)
say(f"{' and '.join(PLAYERS)} wrote exactly the WAV's samples")

# Context: what reading the file once and starting each program alone cost.
context = {"cat FILE > /dev/null": ["cat", FILE], "aplay --version": ["aplay", "--version"]}
if "voicejournal" in PLAYERS:
    context["voicejournal --version"] = [BINARY, "--version"]


def run_plain(argv):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


for player in PLAYERS:  # warm-up, not counted: the file in the page cache, the binary loaded
    run(player, "null")
unpaced = {player: [] for player in PLAYERS}
copied = {player: [] for player in PLAYERS}
others = {name: [] for name in context}
for i in range(ROUNDS):
    for player in (PLAYERS if i % 2 == 0 else PLAYERS[::-1]):
        unpaced[player].append(run(player, "null"))
        copied[player].append(run(player, "benchcopy"))
    for name, argv in context.items():
        others[name].append(run_plain(argv))
say(f"unpaced: {ROUNDS} rounds done; paced at {SPEED:g}x real time ({SECONDS / SPEED:.0f} s a run)…")
paced_runs = {player: [] for player in PLAYERS}
for i in range(PACED_ROUNDS):
    for player in (PLAYERS if i % 2 == 0 else PLAYERS[::-1]):
        paced_runs[player].append(paced(player))


def ms(seconds):
    return f"{seconds * 1000:.1f} ms"


def table(title, runs, unit):
    print(title)
    print(f"  {'program':<14} {'CPU median':>11} {'CPU min':>10} {'wall median':>12}   CPU per run")
    for player, results in runs.items():
        cpus = [r[0] for r in results]
        print(f"  {player:<14} {unit(statistics.median(cpus)):>11} {unit(min(cpus)):>10} "
              f"{statistics.median(r[1] for r in results):>10.3f} s   {', '.join(unit(c) for c in cpus)}")
    if len(runs) < 2:
        return None
    a, v = ([r[0] for r in runs[p]] for p in ("aplay", "voicejournal"))
    median_ratio, min_ratio = statistics.median(v) / statistics.median(a), min(v) / min(a)
    print(f"  voicejournal / aplay CPU: {median_ratio:.2f} (median), {min_ratio:.2f} (min)")
    return median_ratio


print(f"Playing {SECONDS:.0f} s of {RATE} Hz, {CHANNELS} channels, {WIDTH * 8}-bit WAV "
      f"({AUDIO_BYTES / 1e6:.1f} MB of samples); CPU = user + sys, display off.")
ratio = table(f"Unpaced, into ALSA's null device ({ROUNDS} rounds, alternating):", unpaced, ms)
for name, cpus in others.items():
    print(f"  for comparison: {name:<24} CPU median {ms(statistics.median(cpus))}, min {ms(min(cpus))}")
copied_ratio = table(f"Unpaced, the file plugin copying every sample to /dev/null ({ROUNDS} rounds, alternating):", copied, ms)
paced_ratio = table(f"Paced, the file plugin into a FIFO drained at {SPEED:g}x real time "
                    f"({PACED_ROUNDS} rounds, alternating):", paced_runs, ms)
if ratio is None:
    print("(aplay alone: no ratio, no check)")
    sys.exit(0)
spare = GOAL * statistics.median(r[0] for r in unpaced["aplay"]) - statistics.median(r[0] for r in unpaced["voicejournal"])
print(f"Goal: unpaced median ratio at most {GOAL}: {'met' if ratio <= GOAL else 'NOT met'} "
      f"({ratio:.2f}; {spare * 1000:+.1f} ms of CPU to spare); copied {copied_ratio:.2f}, paced {paced_ratio:.2f} "
      "(shown, not checked)")
if ratio > GOAL:
    print(f"bench-play: voicejournal play costs {ratio:.2f}x aplay's CPU, over {GOAL}x", file=sys.stderr)
    sys.exit(1)
