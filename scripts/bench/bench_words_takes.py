#!/usr/bin/env python3
"""Journal-style takes for scripts/bench/bench-words: speech separated by long pauses of room noise,
with clicks, coughs and hummed chords in the pauses, and takes with no speech at all.

    python3 scripts/bench/bench_words_takes.py FOLDER [--seed N]

writes FOLDER/take01.wav ... (16 kHz mono 16-bit) and FOLDER/truth.json:

    {"take01.wav": {"utterances": [{"start": s, "end": e, "text": "...", "source": "..."}],
                    "speech_seconds": x, "duration": y,
                    "events": [{"kind": "click" | "cough" | "hum", "start": s, "end": e}]}}

Times are exact: each utterance is a clip trimmed to its sound (first to last 10 ms frame within
40 dB of its loudest) and placed at a whole sample, so `start`/`end` are where that sound is.
The folder is built under a temporary name beside FOLDER and swapped in whole, so a reader
never sees a half-written set. Same seed, same sources: the same bytes.

Speech comes from espeak-ng (several voices, rates 140-170 words a minute) and from recordings
of human speech in Debian packages, used where they are on the machine or can be fetched with
`apt-get download` (extracted into a temporary folder, never installed):
- alsa-utils: speaker-test's channel names ("Front left", ...), GPL-2;
- ktuberling-data: KTuberling's English word recordings ("pepperoni", "rocket", ...), GPL-2+.
A source that cannot be had is replaced by espeak-ng saying the same words, with a note on
stderr and `"source"` in truth.json telling which was used.

Levels: speech -30..-20 dBFS (RMS of its voiced frames), room noise (pink and brown) -50..-45
dBFS, clicks peaking at -22..-10 dBFS, coughs (a ~0.3 s band-passed noise burst, sharp attack,
decaying) and hums (2-4 s, three voices of a chord with harmonics and a slight vibrato) at
speech-like levels. Standard library, sox and espeak-ng only.
"""
import argparse, array, ctypes, glob, json, math, os, random, shutil, subprocess, sys, tempfile, wave
from pathlib import Path

RATE = 16000

# Each take: what is said, in order. ("espeak", voice, rate, text) | ("alsa", [names], text)
# | ("ktub", [names], text) | ("gap",) — a take of no speech has only its length.
# Texts write numbers as words and avoid words with two usual spellings. The espeak-ng sentences
# and voices are ones tiny.en transcribes word for word alone (clean, and at -29 dBFS over
# -46 dBFS room noise), so the word error rate measures what pauses, noise and the path cost,
# not espeak-ng's diction; the human recordings are taken as they are.
TAKES = [
    [("espeak", "en+m3", 150, "This morning I walked down to the river before breakfast."),
     ("alsa", ["Front_Left"], "front left"),
     ("espeak", "en+f3", 150, "I keep thinking about the conversation with my sister last night.")],
    [("espeak", "en-us", 145, "Tomorrow I have to remember to call the plumber."),
     ("espeak", "en-us", 140, "five, five"),
     ("espeak", "en+m3", 150, "I need to call the garage on Monday about the car.")],
    [("ktub", ["pizzeria_pepperoni", "pizzeria_mushroom", "pizzeria_onion"], "pepperoni mushroom onion"),
     ("espeak", "en-us", 150, "That is what we ordered, and it was far too much food."),
     ("espeak", "en-us", 155, "Next time we will get one pizza and a big salad.")],
    [("espeak", "en-us", 150, "My knee hurt again after the run, but only a little."),
     ("espeak", "en+m3", 140, "okay, then"),
     ("espeak", "en+f3", 150, "I think the new shoes are helping more than the stretching."),
     ("alsa", ["Rear_Left"], "rear left")],
    [("espeak", "en+m3", 150, "The meeting with the new team went better than I expected."),
     ("espeak", "en-us", 145, "The train to the city was twenty minutes late."),
     ("espeak", "en+f3", 140, "not yet")],
    [("ktub", ["moon_rocket", "moon_satellite", "moon_planet"], "rocket satellite planet"),
     ("espeak", "en+f3", 165, "The children built a tower out of wooden blocks."),
     ("espeak", "en-us", 150, "I am not even angry, the drawing is actually quite good.")],
    [("espeak", "en+f3", 150, "Today I want to remember how quiet the house is in the morning."),
     ("espeak", "en+m3", 150, "five, five"),
     ("espeak", "en+m3", 150, "Everyone is still asleep and the light is soft.")],
    [("alsa", ["Side_Left"], "side left"),
     ("espeak", "en-us", 145, "I would like to learn to play the piano this winter."),
     ("espeak", "en+f3", 150, "The ending is sad, but I like the way it is written.")],
    [("espeak", "en+f3", 150, "I need to plan the garden before the rain comes back."),
     ("ktub", ["egypt_camel", "egypt_pyramid", "egypt_palmtree"], "camel pyramid palm tree"),
     ("espeak", "en-us", 150, "all right")],
    [], [], [],  # no speech: room noise with clicks, a cough and a hum
]
SPEECHLESS_SECONDS = (38.0, 48.0)

# Human speech in Debian packages: kind -> (package, folder, file suffix). scripts/bench/bench-offline's
# corpus uses the same sources, plus Asterisk's English prompts (recorded by Allison Smith).
DEBIAN_SPEECH = {
    "alsa": ("alsa-utils", "/usr/share/sounds/alsa", ".wav"),
    "ktub": ("ktuberling-data", "/usr/share/ktuberling/sounds/en", ".ogg"),
    "asterisk": ("asterisk-core-sounds-en-wav", "/usr/share/asterisk/sounds/en_US_f_Allison", ".wav"),
}


def db(level):
    return 10 ** (level / 20)


def run(command, **kwargs):
    return subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, **kwargs)


def read_audio(path, work):
    """Any file sox reads, as 16 kHz mono floats in [-1, 1] (no dither, so the same input gives the same samples)."""
    converted = Path(work) / (Path(path).stem + "-16k.wav")
    run(["sox", "-D", str(path), "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", str(converted)])
    with wave.open(str(converted), "rb") as w:
        data = array.array("h", w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        data.byteswap()
    return [x / 32768 for x in data]


def frames_rms(samples, size=160):
    return [math.sqrt(sum(x * x for x in samples[i:i + size]) / size) if samples[i:i + size] else 0.0
            for i in range(0, len(samples) - size + 1, size)]


def trim_and_level(samples, level_db):
    """The clip from its first to its last 10 ms frame within 40 dB of its loudest frame,
    scaled so that the RMS of its frames within 30 dB of the loudest is `level_db` dBFS."""
    rms = frames_rms(samples)
    top = max(rms) if rms else 0.0
    if top <= 0:
        raise ValueError("silent clip")
    active = [i for i, r in enumerate(rms) if r >= top * db(-40)]
    clip = samples[active[0] * 160:(active[-1] + 1) * 160]
    voiced = [r for r in rms if r >= top * db(-30)]
    voiced_rms = math.sqrt(sum(r * r for r in voiced) / len(voiced))
    gain = db(level_db) / voiced_rms
    return [x * gain for x in clip]


class Sources:
    """Where speech clips come from; Debian packages are looked for once, fetched if missing."""

    def __init__(self, work):
        self.work = Path(work)
        self.roots = {}
        self.notes = []

    def debian(self, package, folder):
        """The folder `folder` (an absolute path inside `package`) from the installed package,
        or from the package fetched with `apt-get download` and unpacked into the work folder;
        None (with a note) when neither works."""
        if package in self.roots:
            return self.roots[package]
        found = None
        if Path(folder).is_dir():
            found = Path(folder)
        else:
            target = self.work / package
            target.mkdir(exist_ok=True)
            for attempt in range(2):
                try:
                    run(["apt-get", "download", package], cwd=target, timeout=300)
                    deb = sorted(target.glob(f"{package}_*.deb"))[0]
                    run(["dpkg-deb", "-x", str(deb), str(target / "root")])
                    found = target / "root" / folder.lstrip("/")
                    break
                except (subprocess.SubprocessError, OSError, IndexError) as error:
                    detail = getattr(error, "stderr", b"") or b""
                    if attempt == 0 and os.geteuid() == 0:
                        subprocess.run(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL,
                                       stderr=subprocess.DEVNULL, timeout=300)
                        continue
                    self.notes.append(f"{package}: not available ({detail.decode(errors='replace').strip()[-200:] or error}); "
                                      "its utterances are spoken by espeak-ng instead")
            if found is not None and not found.is_dir():
                self.notes.append(f"{package}: no {folder} in the package; its utterances are spoken by espeak-ng instead")
                found = None
        self.roots[package] = found
        return found

    def espeak(self, voice, rate, text, name):
        path = self.work / f"{name}.wav"
        run(["espeak-ng", "-v", voice, "-s", str(rate), "-w", str(path), text])
        return read_audio(path, self.work)

    def clip(self, item, name, rng):
        """(samples before levelling, source label) of one utterance."""
        kind = item[0]
        if kind == "espeak":
            _, voice, rate, text = item
            return self.espeak(voice, rate, text, name), f"espeak-ng {voice} {rate}"
        names, text = item[1], item[2]
        package, folder, suffix = DEBIAN_SPEECH[kind]
        root = self.debian(package, folder)
        if root is None:
            voice, rate = rng.choice(["en-us", "en+m3", "en+f3"]), rng.randint(140, 170)
            return self.espeak(voice, rate, text, name), f"espeak-ng {voice} {rate} (in place of {package})"
        # Words of a list are each trimmed and levelled alike, then joined by 0.35 s of silence
        # (the room noise is added under the whole take later).
        joined = []
        for index, word in enumerate(names):
            piece = trim_and_level(read_audio(root / (word + suffix), self.work), -25)
            if index:
                joined.extend([0.0] * int(0.35 * RATE))
            joined.extend(piece)
        return joined, f"{package} ({', '.join(names)}), human"


def room_noise(count, rng, level_db):
    """Pink (Paul Kellet's filter) and brown (leaky integrator) noise mixed, at `level_db` RMS."""
    b0 = b1 = b2 = b3 = b4 = b5 = b6 = 0.0
    brown = 0.0
    mix = rng.uniform(0.3, 0.7)
    gauss = rng.gauss
    out = [0.0] * count
    for i in range(count):
        white = gauss(0, 1)
        b0 = 0.99886 * b0 + white * 0.0555179
        b1 = 0.99332 * b1 + white * 0.0750759
        b2 = 0.96900 * b2 + white * 0.1538520
        b3 = 0.86650 * b3 + white * 0.3104856
        b4 = 0.55000 * b4 + white * 0.5329522
        b5 = -0.7616 * b5 - white * 0.0168980
        pink = (b0 + b1 + b2 + b3 + b4 + b5 + b6 + white * 0.5362) * 0.11
        b6 = white * 0.115926
        brown = 0.995 * brown + white * 0.05
        out[i] = mix * pink + (1 - mix) * brown
    rms = math.sqrt(sum(x * x for x in out) / count)
    gain = db(level_db) / rms
    return [x * gain for x in out]


def click(rng):
    """A short transient: a damped ring of 2-5 kHz lasting ~6 ms, sometimes doubled."""
    freq, peak, tau = rng.uniform(2000, 5000), db(rng.uniform(-22, -10)), rng.uniform(0.0006, 0.0015)
    length = int(0.006 * RATE)
    one = [peak * math.exp(-n / RATE / tau) * math.sin(2 * math.pi * freq * n / RATE + 0.3) for n in range(length)]
    if rng.random() < 0.4:
        one += [0.0] * int(rng.uniform(0.04, 0.09) * RATE) + [0.6 * x for x in one]
    return one


def cough(rng):
    """A ~0.3 s burst of band-passed noise (RBJ band-pass, 400-1200 Hz centre), sharp attack
    (5 ms) and exponential decay, at a speech-like level; sometimes two in a row."""
    def burst(level):
        centre, q = rng.uniform(400, 1200), rng.uniform(0.6, 1.0)
        w0 = 2 * math.pi * centre / RATE
        alpha = math.sin(w0) / (2 * q)
        a0, a1, a2 = 1 + alpha, -2 * math.cos(w0), 1 - alpha
        b0, b2 = alpha, -alpha
        length = int(rng.uniform(0.25, 0.35) * RATE)
        x1 = x2 = y1 = y2 = 0.0
        out = []
        for n in range(length):
            x = rng.gauss(0, 1)
            y = (b0 * x + b2 * x2 - a1 * y1 - a2 * y2) / a0
            x2, x1, y2, y1 = x1, x, y1, y
            t = n / RATE
            envelope = min(1.0, t / 0.005) * math.exp(-t / 0.07)
            out.append(y * envelope)
        peak_rms = math.sqrt(sum(v * v for v in out[:int(0.05 * RATE)]) / int(0.05 * RATE))
        return [v * db(level) / peak_rms for v in out]
    level = rng.uniform(-24, -16)
    sound = burst(level)
    if rng.random() < 0.5:
        sound += [0.0] * int(rng.uniform(0.15, 0.3) * RATE) + burst(level - 3)
    return sound


def hum(rng):
    """2-4 s of a hummed chord: three voices (root, third, fifth) of four harmonics each, with a
    ~5 Hz vibrato of +-0.5 %, soft 0.15 s attack and release, RMS -30..-22 dBFS."""
    seconds = rng.uniform(2.0, 4.0)
    root = rng.uniform(110, 200)
    ratios = [1.0, rng.choice([1.25, 1.2]), 1.5]
    length = int(seconds * RATE)
    out = [0.0] * length
    for ratio in ratios:
        f0, rate, phase_v = root * ratio, rng.uniform(4.5, 6.0), rng.uniform(0, 6.28)
        phase = 0.0
        for n in range(length):
            t = n / RATE
            f = f0 * (1 + 0.005 * math.sin(2 * math.pi * rate * t + phase_v))
            phase += 2 * math.pi * f / RATE
            out[n] += sum(math.sin(h * phase) / h ** 1.5 for h in (1, 2, 3, 4))
    fade = int(0.15 * RATE)
    for n in range(length):
        out[n] *= min(1.0, n / fade, (length - 1 - n) / fade)
    rms = math.sqrt(sum(v * v for v in out) / length)
    gain = db(rng.uniform(-30, -22)) / rms
    return [v * gain for v in out]


def place_events(rng, gaps, want_cough, want_hum):
    """Events in the free stretches `gaps` [(start, end) seconds], each kept 0.8 s clear of their
    ends: clicks in every stretch, a cough and a hum where asked. Returns [(kind, start, sound)]."""
    events = []
    taken = []

    def free(start, length, lo, hi):
        return lo <= start and start + length <= hi and all(start + length + 0.3 < a or start > b + 0.3 for a, b in taken)

    def put(kind, sound, lo, hi):
        length = len(sound) / RATE
        for _ in range(50):
            if hi - lo <= length:
                return False
            start = rng.uniform(lo, hi - length)
            if free(start, length, lo, hi):
                taken.append((start, start + length))
                events.append((kind, start, sound))
                return True
        return False

    usable = [(a + 0.8, b - 0.8) for a, b in gaps if b - a > 2.0]
    order = list(range(len(usable)))
    rng.shuffle(order)
    if want_hum and usable:
        for i in order:
            if put("hum", hum(rng), *usable[i]):
                break
    if want_cough and usable:
        for i in reversed(order):
            if put("cough", cough(rng), *usable[i]):
                break
    for lo, hi in usable:
        for _ in range(rng.randint(1, 3)):
            put("click", click(rng), lo, hi)
    return sorted(events, key=lambda e: e[1])


def build_take(index, plan, sources, seed):
    rng = random.Random(f"{seed}-take{index}")
    name = f"take{index:02d}"
    clips = []
    for number, item in enumerate(plan):
        raw, label = sources.clip(item, f"{name}-u{number}", rng)
        level = rng.uniform(-30, -20)
        clips.append((trim_and_level(raw, level), item[-1], label))

    if clips:
        position = rng.uniform(1.5, 3.0)
        placed, gaps = [], [(0.0, position)]
        for number, (samples, text, label) in enumerate(clips):
            start = int(position * RATE)
            placed.append((start, samples, text, label))
            end = (start + len(samples)) / RATE
            pause = rng.uniform(8.0, 16.0) if number < len(clips) - 1 else rng.uniform(1.5, 3.5)
            gaps.append((end, end + pause))
            position = end + pause
        duration = position
    else:
        placed = []
        duration = rng.uniform(*SPEECHLESS_SECONDS)
        gaps = [(0.0, duration)]
    count = int(duration * RATE)
    duration = count / RATE

    # The takes with speech get a cough or a hum in every other take, alternately, plus clicks;
    # the speechless ones get all three.
    want_cough = not clips or index % 2 == 0
    want_hum = not clips or index % 2 == 1 or index % 3 == 0
    events = place_events(rng, gaps, want_cough, want_hum)

    mix = room_noise(count, rng, rng.uniform(-50, -45))
    for start, samples, _, _ in placed:
        for offset, value in enumerate(samples):
            if start + offset < count:
                mix[start + offset] += value
    for _, start, sound in events:
        first = int(start * RATE)
        for offset, value in enumerate(sound):
            if first + offset < count:
                mix[first + offset] += value
    data = array.array("h", (max(-32768, min(32767, int(round(v * 32768)))) for v in mix))
    if sys.byteorder == "big":
        data.byteswap()
    truth = {
        "utterances": [{"start": round(start / RATE, 4), "end": round((start + len(samples)) / RATE, 4),
                        "text": text, "source": label} for start, samples, text, label in placed],
        "speech_seconds": round(sum(len(samples) for _, samples, _, _ in placed) / RATE, 4),
        "duration": round(duration, 4),
        "events": [{"kind": kind, "start": round(int(start * RATE) / RATE, 4),
                    "end": round((int(start * RATE) + len(sound)) / RATE, 4)} for kind, start, sound in events],
    }
    return f"{name}.wav", data, truth


def swap_in(built, target):
    """Put the folder `built` at `target`: an atomic exchange (renameat2 RENAME_EXCHANGE) when
    `target` exists and the kernel has it, else rename the old one aside first."""
    if target.exists():
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            if libc.renameat2(-100, bytes(built), -100, bytes(target), 2) == 0:
                shutil.rmtree(built)
                return
        except (AttributeError, OSError):
            pass
        aside = target.with_name(f".{target.name}.old-{os.getpid()}")
        os.rename(target, aside)
        os.rename(built, target)
        shutil.rmtree(aside)
    else:
        os.rename(built, target)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--seed", type=int, default=23)
    arguments = parser.parse_args()
    target = Path(arguments.folder).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    try:
        with tempfile.TemporaryDirectory() as work:
            sources = Sources(work)
            truth = {}
            for index, plan in enumerate(TAKES, start=1):
                name, data, take = build_take(index, plan, sources, arguments.seed)
                with wave.open(str(built / name), "wb") as w:
                    w.setnchannels(1)
                    w.setsampwidth(2)
                    w.setframerate(RATE)
                    w.writeframes(data.tobytes())
                truth[name] = take
            for note in sources.notes:
                print(f"bench_words_takes: {note}", file=sys.stderr)
        (built / "truth.json").write_text(json.dumps(truth, indent=1) + "\n")
        os.chmod(built, 0o755)
        swap_in(built, target)
    except BaseException:
        shutil.rmtree(built, ignore_errors=True)
        raise
    speech = sum(t["speech_seconds"] for t in truth.values())
    total = sum(t["duration"] for t in truth.values())
    silent = sum(1 for t in truth.values() if not t["utterances"])
    print(f"{len(truth)} takes ({silent} without speech) in {target}: {total:.1f} s, {speech:.1f} s of speech")


if __name__ == "__main__":
    main()
