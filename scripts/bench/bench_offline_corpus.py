#!/usr/bin/env python3
"""The folder of speech scripts/bench/bench-offline transcribes: about six minutes in 19 recordings
of 6-42 s, mostly English, human and espeak-ng, plus two German and two Spanish espeak-ng files.

    python3 scripts/bench/bench_offline_corpus.py FOLDER [--seed N]

writes FOLDER/NN-name.wav (a few .flac; 16 kHz mono 16-bit) and FOLDER/truth.json:

    {"version": V, "files": {"01-welcome.wav": {"language": "en", "text": "...",
        "human": true, "duration": s, "speech_seconds": s, "sources": ["..."]}}}

Each file is its utterances, each trimmed to its sound and levelled (-26..-20 dBFS), with
0.5-1.2 s pauses between them and 0.4-1.0 s before and after, over quiet room noise (-58..-52
dBFS). Same seed, same sources: the same bytes (WAV and sox's FLAC both carry no timestamp).
The folder is built beside FOLDER and swapped in whole; a FOLDER already holding this version
(and seed) of the corpus is left as it is.

Human speech comes from Debian packages (fetched with `apt-get download` when not installed,
never installed): Asterisk's English prompts (asterisk-core-sounds-en-wav, Allison Smith's
voice, 8 kHz telephone recordings, CC-BY-SA 3.0), KTuberling's English words (ktuberling-data,
GPL-2+) and speaker-test's channel names (alsa-utils, GPL-2). A prompt's text is the package's
core-sounds-en.txt, corrected where the recording says otherwise ("touchtone", "thru" -> "through").
The espeak-ng sentences were written for this corpus and not chosen by how well any model
transcribes them, so the corpus does not favour one model. A source that cannot be had is
spoken by espeak-ng instead (bench_words_takes.Sources), with a note on stderr.
"""
import argparse, array, json, random, subprocess, sys, tempfile, wave
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_words_takes import RATE, Sources, db, room_noise, swap_in, trim_and_level  # noqa: E402

VERSION = 1  # bump when the files change: a cached folder of another version is rebuilt

# (file name, language, utterances). An utterance: ("espeak", voice, rate, text) |
# ("asterisk" | "ktub" | "alsa", [recordings joined by 0.35 s], text).
FILES = [
    ("welcome.wav", "en", [
        ("asterisk", ["demo-congrats"],
         "Congratulations. You have successfully installed and executed the Asterisk open source PBX. "
         "You have also installed a set of sample sounds and configuration files that should help you get "
         "started. Like a normal PBX you will navigate this demonstration by dialing digits. If you are using "
         "a console channel driver instead of a real phone you can use the dial, answer, and hang up commands "
         "to simulate the actions of a standard telephone.")]),
    ("spring.wav", "en", [
        ("espeak", "en-us", 150,
         "Today was the first warm day of the spring. I opened every window in the flat and cleaned the "
         "kitchen while the radio played old songs. In the afternoon I walked to the market and bought bread, "
         "cheese and a bag of green apples.")]),
    ("echo-test.wav", "en", [
        ("asterisk", ["demo-echotest"],
         "You are about to enter an echo test. In this mode everything you say will be repeated back to you "
         "just as soon as it is received. The purpose of this test is to give you an audible sense of the "
         "latency between you and the machine that is running the echo test application. You may end the "
         "test by hanging up or by pressing the pound key."),
        ("asterisk", ["demo-abouttotry"],
         "I am about to attempt an Inter-Asterisk Exchange connection to a demonstration server located at "
         "Digium. In order for this to work you must already be connected to the Internet. Please wait a "
         "moment while I attempt to make the connection.")]),
    ("work-week.flac", "en", [
        ("espeak", "en+m3", 145,
         "Work was slow this week. The new project keeps changing, and nobody seems to know who makes the "
         "final decision."),
        ("espeak", "en+m3", 145,
         "I should write down my questions before the meeting on Thursday, so that I do not forget them again.")]),
    ("pizza-words.wav", "en", [
        ("ktub", ["pizzeria_pepperoni", "pizzeria_mushroom", "pizzeria_onion", "pizzeria_tomato"],
         "pepperoni mushroom onion tomato"),
        ("ktub", ["pizzeria_cheese", "pizzeria_olive", "pizzeria_pineapple", "pizzeria_salami"],
         "cheese olive pineapple salami"),
        ("alsa", ["Front_Left", "Front_Right"], "front left front right")]),
    ("company-menu.flac", "en", [
        ("asterisk", ["basic-pbx-ivr-main"],
         "Thank you for calling Super Awesome Company, Waldo's premier provider of the perfect products. If you "
         "know your party's extension, you may dial it at any time. To establish a sales partnership, press one. "
         "To speak with a customer advocate, press two. For accounting and other receivables, press three. For "
         "a company directory, press four. For an operator, press zero."),
        ("asterisk", ["vm-msginstruct"],
         "To hear the next message press 6, to repeat this message press 5, to hear the previous message press "
         "4, to delete or undelete this message press zero, to quit voicemail press pound.")]),
    ("bicycle.wav", "en", [
        ("espeak", "en+f3", 160,
         "My daughter learned to ride her bicycle without help. She fell twice, laughed both times, and then "
         "rode all the way to the end of the street. I was more nervous than she was.")]),
    ("doctor.wav", "en", [
        ("espeak", "en+f3", 150, "Remember to call the doctor about the results, and ask about the new tablets.")]),
    ("callee-options.wav", "en", [
        ("asterisk", ["priv-callee-options"],
         "Dial 1 if you wish this caller to reach you directly now, and in the future. Dial 2 if you wish to "
         "send this caller to voicemail now and forevermore. Dial 3 to send this caller to the torture menus, "
         "now and forevermore. Dial 4 to send this caller to a polite don't call menu, now and forevermore. "
         "Dial 5 to allow this caller to come straight through to you in the future, but just this once, send "
         "them to voicemail.")]),
    ("bad-night.wav", "en", [
        ("espeak", "en-us", 140,
         "I slept badly last night. The people upstairs had a party until two in the morning, and the dog next "
         "door would not stop barking."),
        ("espeak", "en-us", 140, "Tonight I will go to bed early and read a book instead.")]),
    ("directory.wav", "en", [
        ("asterisk", ["dir-intro"],
         "Welcome to the directory. Please enter the first three letters of your party's last name using your "
         "touchtone keypad. Use the 7 key for Q and the 9 key for Z."),
        ("asterisk", ["dir-instr"], "If this is the person you're looking for press 1 now, otherwise please press star now."),
        ("asterisk", ["vm-mismatch"], "The password you entered and re-entered did not match. Please try again."),
        ("asterisk", ["pbx-invalidpark"], "I am sorry, but there is no call parked on that extension. Please try again.")]),
    ("trip-notes.wav", "en", [
        ("espeak", "en+m3", 165,
         "Notes for the trip: book the train tickets, ask Anna to water the plants, and find the charger for "
         "the camera."),
        ("espeak", "en+m3", 165, "We leave on Friday morning and come back the following Sunday.")]),
    ("moon-words.wav", "en", [
        ("ktub", ["moon_rocket", "moon_satellite", "moon_planet", "moon_astronaut"], "rocket satellite planet astronaut"),
        ("ktub", ["egypt_camel", "egypt_pyramid", "egypt_donkey"], "camel pyramid donkey"),
        ("alsa", ["Rear_Left", "Rear_Right"], "rear left rear right")]),
    ("busy-lines.wav", "en", [
        ("asterisk", ["tt-allbusy"],
         "All representatives of the household are currently assisting other telemarketers. Please hold and "
         "your call will be answered in the order it was received."),
        ("asterisk", ["queue-periodic-announce"],
         "All of our representatives are currently busy. Please stay on the line and your call will be "
         "answered by the next available representative.")]),
    ("long-day.wav", "en", [
        ("espeak", "en-us", 155,
         "It was a long day. The bus was late, so I walked the last part of the way and arrived at the office "
         "with wet shoes."),
        ("espeak", "en+f3", 150,
         "In the morning we went through the budget line by line. Most of it was fine, but the travel costs "
         "were much higher than we planned, and we have to explain why before the end of the month."),
        ("espeak", "en-us", 155,
         "At lunch I sat in the park for half an hour and watched the ducks. It is strange how quickly the "
         "mind calms down when there is nothing to do."),
        ("espeak", "en+m3", 150,
         "The afternoon was meetings, one after another. When I got home I made soup, called my mother, and "
         "fell asleep on the sofa before nine.")]),
    ("heute.flac", "de", [
        ("espeak", "de", 150, "Heute war ein schöner Tag. Wir sind mit dem Fahrrad zum See gefahren und haben dort "
                              "zu Mittag gegessen.")]),
    ("morgen.wav", "de", [
        ("espeak", "de", 145, "Morgen muss ich früh aufstehen, weil der Zug um sieben Uhr fährt."),
        ("espeak", "de", 145, "Ich habe meine Tasche schon gepackt.")]),
    ("mercado.wav", "es", [
        ("espeak", "es", 150, "Esta mañana fui al mercado con mi madre. Compramos fruta, pan y flores para la mesa.")]),
    ("abuelos.wav", "es", [
        ("espeak", "es", 145, "El fin de semana vamos a visitar a mis abuelos en el pueblo."),
        ("espeak", "es", 145, "Hace mucho tiempo que no los vemos.")]),
]


def build_file(index, name, language, plan, sources, seed):
    """(samples as 16-bit ints, truth) of one file."""
    rng = random.Random(f"{seed}-offline{index}")
    stem = f"{index:02d}-{Path(name).stem}"
    clips, labels = [], []
    for number, item in enumerate(plan):
        raw, label = sources.clip(item, f"{stem}-u{number}", rng)
        clips.append(trim_and_level(raw, rng.uniform(-26, -20)))
        labels.append(label)
    position = int(rng.uniform(0.4, 1.0) * RATE)
    placed = []
    for number, samples in enumerate(clips):
        placed.append((position, samples))
        position += len(samples) + int((rng.uniform(0.5, 1.2) if number < len(clips) - 1 else rng.uniform(0.5, 1.0)) * RATE)
    mix = room_noise(position, rng, rng.uniform(-58, -52))
    for start, samples in placed:
        for offset, value in enumerate(samples):
            mix[start + offset] += value
    data = array.array("h", (max(-32768, min(32767, int(round(v * 32768)))) for v in mix))
    if sys.byteorder == "big":
        data.byteswap()
    truth = {"language": language, "text": " ".join(item[-1] for item in plan),
             "human": any("human" in label for label in labels),
             "duration": round(position / RATE, 4),
             "speech_seconds": round(sum(len(s) for s in clips) / RATE, 4), "sources": labels}
    return data, truth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder")
    parser.add_argument("--seed", type=int, default=24)
    arguments = parser.parse_args()
    target = Path(arguments.folder).resolve()
    try:
        cached = json.loads((target / "truth.json").read_text())
        if cached.get("version") == VERSION and cached.get("seed") == arguments.seed and \
                all((target / name).is_file() for name in cached["files"]):
            print(f"{len(cached['files'])} files in {target}: already made (version {VERSION})")
            return
    except (OSError, ValueError, KeyError, AttributeError):
        pass  # no folder, or not one of ours: build it
    target.parent.mkdir(parents=True, exist_ok=True)
    built = Path(tempfile.mkdtemp(prefix=f".{target.name}.building-", dir=target.parent))
    try:
        files = {}
        with tempfile.TemporaryDirectory() as work:
            sources = Sources(work)
            for index, (name, language, plan) in enumerate(FILES, start=1):
                data, truth = build_file(index, name, language, plan, sources, arguments.seed)
                final = f"{index:02d}-{name}"
                wav = built / (Path(final).stem + ".wav")
                with wave.open(str(wav), "wb") as w:
                    w.setnchannels(1)
                    w.setsampwidth(2)
                    w.setframerate(RATE)
                    w.writeframes(data.tobytes())
                if final.endswith(".flac"):
                    subprocess.run(["sox", "-D", str(wav), str(built / final)], check=True)
                    wav.unlink()
                files[final] = truth
            for note in sources.notes:
                print(f"bench_offline_corpus: {note}", file=sys.stderr)
        (built / "truth.json").write_text(json.dumps({"version": VERSION, "seed": arguments.seed, "files": files},
                                                     indent=1, ensure_ascii=False) + "\n")
        built.chmod(0o755)
        swap_in(built, target)
    except BaseException:
        subprocess.run(["rm", "-rf", str(built)])
        raise
    total = sum(t["duration"] for t in files.values())
    english = sum(t["duration"] for t in files.values() if t["language"] == "en")
    human = sum(t["duration"] for t in files.values() if t["human"])
    print(f"{len(files)} files in {target}: {total:.1f} s ({english:.1f} s English, {human:.1f} s of it human)")


if __name__ == "__main__":
    main()
