#!/usr/bin/env python3
"""An OpenAI-compatible transcription endpoint for the tests (standard library only).

POST /v1/audio/transcriptions parses the multipart body as it streams in (the file part is
hashed and counted, never held in memory), checks every field, the file part's filename and
content type, and the Authorization header, and answers like the OpenAI API: `json`,
`verbose_json` (segments, optional words), `text`, `srt`, `vtt`, and OpenAI's error shape.
A request that breaks the contract gets a 400 naming each problem.

Fault injection: --plan takes a JSON list of rules, first match wins:
    [{"match": "a.wav", "responses": [{"kind": "error", "status": 429, "retry_after": 1}],
      "then": {"kind": "ok"}}]
"match" is a substring of the uploaded filename ("*" matches all). Each distinct filename
walks through its own copy of "responses"; afterwards it gets "then" (default: ok).
Kinds: ok (two segments, 0–1.5 and 1.5–3.25 s, fitted to the audio when the WAV or FLAC header says
how long it is: squeezed into a shorter file, the last running on to the end of a longer one), error (status, code, type, message, retry_after, retry_after_ms), reset (close
the connection with a TCP reset mid-response), slow (answer after "seconds"), malformed
(200 with broken JSON), echo_key (401 whose message repeats the key it was sent), echo_sha
(a good answer whose text ends with the uploaded file's sha256, so a test can tell which
content a stored transcript came from), hang (read the whole upload, log it, and never
answer: a wedged server; the connection is held until the client gives up), empty (a 200
whose text is empty, whatever the audio holds), says (a good answer whose text is "text",
in one segment), body (a 200 whose JSON body is "body", sent as it is: a crafted answer). --per-audio-second makes every good answer take time in
proportion to the audio it was sent (read from a WAV or FLAC header), as a real server does.

Kinds that answer where the speech in the uploaded audio is (for tests of coverage, words over
silence and time mapping): the upload is kept (in memory, only for these kinds), decoded with
sox (ffmpeg for what sox cannot read) to 16 kHz mono, and its regions of speech found by energy:
20 ms frames over -40 dBFS and 15 dB above the quietest tenth of the frames, gaps under 0.3 s
bridged, regions under 0.1 s dropped. Times are the upload's own. Region i of the k-th such
upload says "region <i> of upload <k>" in words ("region two of upload three"), so no two
regions a run hears say the same. Every segment has avg_logprob -0.2, no_speech_prob 0.01,
compression_ratio 1.3; with timestamp_granularities[]=word the words (OpenAI's shape: a
top-level list, no punctuation) are spread evenly over their segment.
    timed         one segment per region, exactly at its start and end.
    first_half    only the first ceil(n/2) of the upload's n regions (a 1-region upload is answered).
    drop_last     every region but the last (a 1-region upload gets text "" and no segments).
    pause_phrase  timed, plus " Thanks for watching!" in the middle of the longest pause between
                  regions (after the last region when there is one), 1 s long or 80 % of the
                  pause when that is shorter, so it never overlaps speech in the upload.
    loop          timed, but with 2 or more regions the last one says "I went home." five times
                  over, with compression_ratio 2.8.
    across        one segment from the first region's start to the last one's end, across every
                  pause between them (a model that does not hear a shortened pause as a break).
                  "words": "spread" (default: each region's words spread over that region),
                  "stretched" (as spread, but each region's first word after the first starts
                  0.1 s before the previous region ends: a word stretched across the pause), or
                  "none" (no words, even when asked for).
Translations: POST /v1/audio/translations (Whisper's translate task) takes file, model, prompt,
response_format and temperature only (a language or timestamp_granularities[] is a problem, so
is a gpt-4o model: OpenAI translates with whisper-1 alone). Its answers follow --translate-plan
(the same rules as --plan, kept apart so a file's transcription and translation can differ):
ok answers "Translation of <stem>." in two segments, says answers its text, the region kinds
say "translated region <i> of upload <k>", error answers the error (e.g. 400 with code
model_cannot_translate, or 404 for a server without the endpoint). verbose_json answers of
translations say task "translate" and language "english"; those of transcriptions name
--language (default "english"), or the rule's "language".
The request's log line holds the regions found ("regions": [[start, end], ...]) and, when the
header does not say, audio_seconds from the decoded audio.

Every request is appended to --log as one JSON line (timings, fields, file size and sha256,
the client's connection, the names of its headers, problems found, what was answered), just
before its answer is sent. The port is printed on stdout
first thing (--port 0 lets the OS choose).

How an upload reads on the wire (the multipart body, the checks of its fields, a WAV or FLAC
header's length) is scripts/lib/openai_upload.py, shared by the tests' stub and the benchmarks' server.
"""
import argparse
import array
import base64
import json
import math
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from openai_upload import (UploadHandler, UploadServer, boundary_of, check, fit_to_length,  # noqa: E402
                           parse_multipart, spread_words, subtitles)

# Kinds that decode the upload and answer where its speech is.
REGION_KINDS = {"timed", "first_half", "drop_last", "pause_phrase", "loop", "across"}
NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                "eighteen", "nineteen", "twenty"]
RATE = 16000
FRAME = RATE // 50  # 20 ms


def number_words(number):
    """1 → "one"; past twenty, digits (still one word)."""
    return NUMBER_WORDS[number] if 0 <= number < len(NUMBER_WORDS) else str(number)


def decode(body, filename):
    """The upload as 16 kHz mono signed 16-bit samples: sox by the file's extension, then sox
    through libsndfile, then ffmpeg (for containers sox does not read); None if none can."""
    extension = (filename or "").rsplit(".", 1)[-1].lower() if "." in (filename or "") else "wav"
    if not extension.isalnum():
        extension = "wav"
    with tempfile.TemporaryDirectory(prefix="whisper-stub-") as folder:
        path = os.path.join(folder, "upload." + extension)
        with open(path, "wb") as upload:
            upload.write(body)
        raw = ["-t", "raw", "-r", str(RATE), "-c", "1", "-b", "16", "-e", "signed-integer", "-"]
        attempts = [["sox", "-q", path] + raw, ["sox", "-q", "-t", "sndfile", path] + raw]
        if shutil.which("ffmpeg"):
            attempts.append(["ffmpeg", "-v", "quiet", "-i", path, "-f", "s16le", "-ac", "1", "-ar", str(RATE), "-"])
        for command in attempts:
            try:
                done = subprocess.run(command, capture_output=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if done.returncode == 0 and done.stdout:
                samples = array.array("h")
                samples.frombytes(done.stdout[:len(done.stdout) // 2 * 2])
                if sys.byteorder == "big":
                    samples.byteswap()
                return samples
    return None


def speech_regions(samples):
    """Where the speech is, in seconds: 20 ms frames over -40 dBFS and 15 dB above the quietest
    tenth of the frames; gaps under 0.3 s bridged, regions under 0.1 s dropped."""
    levels = []
    for start in range(0, len(samples) - FRAME + 1, FRAME):
        frame = samples[start:start + FRAME]
        power = sum(value * value for value in frame) / FRAME
        levels.append(10 * math.log10(power / (32768.0 * 32768.0)) if power > 0 else -120.0)
    if not levels:
        return []
    floor = sorted(levels)[len(levels) // 10]
    threshold = max(-40.0, floor + 15.0)
    regions = []
    for index, level in enumerate(levels):
        if level <= threshold:
            continue
        start, end = index * FRAME / RATE, (index + 1) * FRAME / RATE
        if regions and start - regions[-1][1] < 0.3:
            regions[-1][1] = end
        else:
            regions.append([start, end])
    return [(round(a, 3), round(b, 3)) for a, b in regions if b - a >= 0.1]


def region_answer(kind, regions, seconds, upload, task="transcribe"):
    """(text, segments) for a region kind, given the upload's regions and its length."""
    def segment(start, end, text, ratio=1.3):
        return {"id": 0, "seek": 0, "start": round(start, 3), "end": round(end, 3), "text": " " + text,
                "tokens": [1], "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": ratio,
                "no_speech_prob": 0.01}
    prefix = "translated region" if task == "translate" else "region"
    said = [segment(a, b, f"{prefix} {number_words(i + 1)} of upload {number_words(upload)}.")
            for i, (a, b) in enumerate(regions)]
    count = len(regions)
    if kind == "first_half":
        said = said[:math.ceil(count / 2)]
    elif kind == "drop_last":
        said = said[:-1]
    elif kind == "loop" and count >= 2:
        a, b = regions[-1]
        said[-1] = segment(a, b, " ".join(["I went home."] * 5), ratio=2.8)
    elif kind == "pause_phrase":
        if count >= 2:
            pause = max(range(count - 1), key=lambda i: regions[i + 1][0] - regions[i][1])
            gap_start, gap_end = regions[pause][1], regions[pause + 1][0]
        elif count == 1:
            gap_start, gap_end = regions[0][1], max(seconds, regions[0][1] + 0.1)
            gap_end = gap_start + min(2.0, gap_end - gap_start)
        else:
            gap_start, gap_end = 0.0, max(seconds, 0.1)
        length = min(1.0, 0.8 * (gap_end - gap_start))
        middle = (gap_start + gap_end) / 2
        said.append(segment(middle - length / 2, middle + length / 2, "Thanks for watching!"))
        said.sort(key=lambda s: s["start"])
    for index, item in enumerate(said):
        item["id"] = index
    return " ".join(item["text"].strip() for item in said), said


class Plan:
    def __init__(self, rules):
        self.rules = rules
        self.counts = {}
        self.lock = threading.Lock()

    def needs_audio(self, filename):
        """Whether the rule a file would get answers from its audio (a region kind), so its
        upload must be kept while it streams in."""
        for rule in self.rules:
            match = rule.get("match", "*")
            if match != "*" and match not in (filename or ""):
                continue
            kinds = [r.get("kind") for r in rule.get("responses", [])] + [rule.get("then", {}).get("kind")]
            return any(kind in REGION_KINDS for kind in kinds)
        return False

    def behaviour_for(self, filename):
        with self.lock:
            for index, rule in enumerate(self.rules):
                match = rule.get("match", "*")
                if match != "*" and match not in (filename or ""):
                    continue
                seen = self.counts.get((index, filename), 0)
                self.counts[(index, filename)] = seen + 1
                responses = rule.get("responses", [])
                if seen < len(responses):
                    return responses[seen]
                return rule.get("then", {"kind": "ok"})
        return {"kind": "ok"}


def transcript_for(filename, task="transcribe"):
    stem = (filename or "audio").rsplit(".", 1)[0]
    first = "Translation" if task == "translate" else "Transcript"
    words = [first, "of", stem + "."]
    segments = [{"id": 0, "seek": 0, "start": 0.0, "end": 1.5, "text": f" {first} of",
                 "tokens": [1, 2], "temperature": 0.0, "avg_logprob": -0.2,
                 "compression_ratio": 1.0, "no_speech_prob": 0.01},
                {"id": 1, "seek": 0, "start": 1.5, "end": 3.25, "text": f" {stem}.",
                 "tokens": [3], "temperature": 0.0, "avg_logprob": -0.2,
                 "compression_ratio": 1.0, "no_speech_prob": 0.01}]
    return " ".join(words), segments


class Handler(UploadHandler):
    server_version = "whisper-stub/1"

    def extra_headers(self):
        return {"x-request-id": f"req_{self.server.next_id()}"}

    def do_POST(self):
        received = time.time()
        record = {"received_at": received, "path": self.path, "connection": self.client_address[1],
                  "header_names": list(self.headers.keys())}
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            self.send_error_json(411, "Content-Length required")
            return
        content_type = self.headers.get("Content-Type", "")
        boundary = boundary_of(content_type)
        route = self.path.rstrip("/")
        self.task = "translate" if route.endswith("/audio/translations") else "transcribe"
        record["task"] = self.task
        if not route.endswith("/audio/transcriptions") and self.task != "translate":
            self.rfile.read(int(length))
            self.send_error_json(404, f"no route {self.path}")
            return
        plan = self.server.translate_plan if self.task == "translate" else self.server.plan
        if self.server.stall > 0:
            time.sleep(self.server.stall)  # a stalled network: the upload cannot move
        try:
            if not content_type.startswith("multipart/form-data") or not boundary:
                raise ValueError(f"Content-Type {content_type!r} is not multipart/form-data with a boundary")
            parts = parse_multipart(self.rfile, int(length), boundary, plan.needs_audio)
        except ValueError as error:
            self.close_connection = True
            record.update(problems=[f"unparseable body: {error}"], answer="400")
            self.server.log(record)
            self.send_error_json(400, f"could not parse multipart body: {error}")
            return
        authorization = self.headers.get("Authorization")
        fields, file_info, problems = check(parts, authorization, self.server.expected_authorization, self.task)
        record.update(body_done_at=time.time(), fields=fields, file=file_info, problems=problems,
                      authorization_ok=not any("Authorization" in p for p in problems))
        filename = (file_info or {}).get("filename")
        if problems == ["missing or wrong Authorization header"] and authorization is not None:
            # Like OpenAI: a key that is not the right one is a 401 that quotes it (a client
            # must not repeat what a server echoes).
            behaviour = {"kind": "error", "status": 401, "code": "invalid_api_key",
                         "message": f"Incorrect API key provided: {authorization.removeprefix('Bearer ')}"}
        else:
            behaviour = {"kind": "error", "status": 400, "message": "; ".join(problems)} if problems \
                else plan.behaviour_for(filename)
        self.audio_seconds = (file_info or {}).get("audio_seconds")
        self.regions = None
        if behaviour.get("kind") in REGION_KINDS:
            body = next((sink.body for name, _, _, sink in parts if name == "file" and sink.body is not None), None)
            samples = decode(bytes(body), filename) if body is not None else None
            if samples is None:
                behaviour = {"kind": "error", "status": 400, "message": "the stub could not decode the audio"}
            else:
                self.decoded_seconds = len(samples) / RATE
                self.regions = speech_regions(samples)
                self.upload_number = self.server.next_upload()
                record["regions"] = [list(region) for region in self.regions]
                if file_info is not None and file_info.get("audio_seconds") is None:
                    file_info["audio_seconds"] = round(self.decoded_seconds, 3)
                    self.audio_seconds = file_info["audio_seconds"]
        record["answer"] = behaviour.get("kind") if behaviour.get("kind") != "error" else str(behaviour.get("status"))
        self.language = "english" if self.task == "translate" else behaviour.get("language", self.server.language)
        if behaviour.get("kind") == "hang":
            # Logged when the upload is in: the answer never comes. Held until the client
            # closes the connection (or the server stops).
            record["responded_at"] = None
            self.server.log(record)
            self.close_connection = True
            try:
                while self.connection.recv(1 << 16):
                    pass
            except OSError:
                pass
            return
        delay = self.delay_for(behaviour)
        if delay > 0:
            time.sleep(delay)
        # Logged before the answer goes out: a client holding its answer finds its request in
        # the log (tests read it the moment a run ends).
        record["responded_at"] = time.time()
        self.server.log(record)
        try:
            self.answer(behaviour, fields, filename, authorization, (file_info or {}).get("sha256"))
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass

    def answer(self, behaviour, fields, filename, authorization, sha256=None):
        kind = behaviour.get("kind", "ok")
        if kind == "error":
            headers = {}
            if "retry_after" in behaviour:
                headers["retry-after"] = str(behaviour["retry_after"])
            if "retry_after_ms" in behaviour:
                headers["retry-after-ms"] = str(behaviour["retry_after_ms"])
            status = int(behaviour.get("status", 500))
            default_type = {400: "invalid_request_error", 401: "invalid_request_error",
                            429: "requests"}.get(status, "server_error")
            self.send_error_json(status, behaviour.get("message", f"stub error {status}"),
                                 behaviour.get("type", default_type), behaviour.get("code"), headers)
        elif kind == "echo_key":
            sent = (authorization or "").removeprefix("Bearer ")
            self.send_error_json(401, f"Incorrect API key provided: {sent}. You can find your API key at https://platform.openai.com/account/api-keys.",
                                 code="invalid_api_key")
        elif kind == "reset":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{\"text\": \"Transcr")
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif kind == "malformed":
            self.send_body(200, '{"text": "Transcript of", "segments": [{"start": 0.0,')
        elif kind == "empty":
            response_format = fields.get("response_format", ["json"])[0]
            body = {"text": ""} if response_format != "verbose_json" else \
                {"task": self.task, "language": self.language, "duration": 3.25, "text": "", "segments": []}
            self.send_body(200, json.dumps(body))
        elif kind == "body":
            # A crafted answer, sent as it is (a hostile or broken server).
            self.send_body(200, behaviour.get("body", ""))
        elif kind == "says":
            self.answer_ok(fields, filename, text=behaviour.get("text", ""))
        elif kind == "across":
            text, segments = region_answer("timed", self.regions, self.decoded_seconds, self.upload_number, self.task)
            words = spread_words(segments)
            if behaviour.get("words") == "stretched":
                # Each region's first word starts just before the region before it ends.
                for previous, current in zip(segments, segments[1:]):
                    first = next(w for w in words if w["start"] >= current["start"])
                    first["start"] = round(previous["end"] - 0.1, 3)
            if segments:
                merged = dict(segments[0], end=segments[-1]["end"], text=" " + text)
                segments = [merged]
            self.send_transcript(fields, text, segments, None if behaviour.get("words") == "none" else words,
                                 round(self.decoded_seconds, 3))
        elif kind in REGION_KINDS:
            text, segments = region_answer(kind, self.regions, self.decoded_seconds, self.upload_number, self.task)
            self.send_transcript(fields, text, segments, spread_words(segments), round(self.decoded_seconds, 3))
        else:
            self.answer_ok(fields, filename, sha256 if kind == "echo_sha" else None)

    def delay_for(self, behaviour):
        """Seconds to wait before a good answer ("slow", --delay, --per-audio-second); 0 for others."""
        kind = behaviour.get("kind", "ok")
        if kind in ("error", "echo_key", "reset", "malformed", "empty"):
            return 0
        delay = float(behaviour.get("seconds", 0)) if kind == "slow" else self.server.delay
        if kind != "slow" and self.server.per_audio_second > 0:
            # Real servers take time in proportion to the audio they decode.
            delay += self.server.per_audio_second * (self.audio_seconds or 0)
        return delay

    def answer_ok(self, fields, filename, sha256=None, text=None):
        if text is None:
            text, segments = transcript_for(filename, self.task)
        else:
            segments = [{"id": 0, "seek": 0, "start": 0.0, "end": 1.5, "text": " " + text, "tokens": [1],
                         "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.0, "no_speech_prob": 0.01}]
        if sha256:
            text += f" sha256:{sha256}"
            segments[-1]["text"] += f" sha256:{sha256}"
        # A real server's answer lies within the audio and has words for all of it: when the
        # audio's length is known (WAV, FLAC), the segments are fitted to it (squeezed into a
        # shorter file, the last one running on to the end of a longer one), and each
        # segment's words are spread over its time.
        fit_to_length(segments, self.audio_seconds)
        words = spread_words(segments, letters_only=False)
        self.send_transcript(fields, text, segments, words, round(self.audio_seconds or 3.25, 3), billed=3)

    def send_transcript(self, fields, text, segments, words, duration, billed=None):
        """A good answer in the format asked for; `billed`: the usage's seconds (default: the
        duration rounded up)."""
        response_format = fields.get("response_format", ["json"])[0]
        if response_format == "json":
            seconds = billed if billed is not None else math.ceil(duration)
            self.send_body(200, json.dumps({"text": text, "usage": {"type": "duration", "seconds": seconds}}))
        elif response_format == "verbose_json":
            body = {"task": self.task, "language": self.language, "duration": duration, "text": text,
                    "segments": segments}
            if words is not None and "word" in fields.get("timestamp_granularities[]", []):
                body["words"] = words
            self.send_body(200, json.dumps(body))
        elif response_format == "text":
            self.send_body(200, text + "\n", "text/plain; charset=utf-8")
        else:
            self.send_body(200, subtitles(segments, response_format), "text/plain; charset=utf-8")


class StubServer(UploadServer):
    def __init__(self, address, plan, delay, expected_authorization, log_path, stall=0, per_audio_second=0,
                 translate_plan=None, language="english"):
        super().__init__(address, Handler, log_path)
        self.translate_plan = translate_plan or Plan([])
        self.language = language
        self.per_audio_second = per_audio_second
        self.stall = stall
        self.plan = plan
        self.delay = delay
        self.expected_authorization = expected_authorization
        self.counter = 0
        self.uploads = 0

    def next_id(self):
        with self.lock:
            self.counter += 1
            return self.counter

    def next_upload(self):
        """Numbers the uploads answered from their audio, 1, 2, …"""
        with self.lock:
            self.uploads += 1
            return self.uploads


def main():
    # A test runner may start us from a thread that blocks signals, and a child inherits
    # that mask: unblock the ones that must stop us, or terminate() would go unheard.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--plan", default="[]", help="fault-injection rules (JSON)")
    parser.add_argument("--delay", type=float, default=0, help="seconds before every successful answer")
    parser.add_argument("--key", help="the bearer key to require (default: require none)")
    parser.add_argument("--key-env", help="read the key to require from this environment variable")
    parser.add_argument("--basic-env", help="require HTTP basic credentials (user:password) from this environment variable instead of a key")
    parser.add_argument("--log", help="append one JSON line per request here")
    parser.add_argument("--per-audio-second", type=float, default=0,
                        help="seconds added to every successful answer per second of audio received (WAV and FLAC)")
    parser.add_argument("--stall", type=float, default=0, help="seconds to wait before reading each request body")
    parser.add_argument("--translate-plan", default="[]", help="rules for /audio/translations (JSON, like --plan)")
    parser.add_argument("--language", default="english", help="the language verbose_json transcriptions name")
    args = parser.parse_args()
    key = args.key
    if args.key_env:
        key = os.environ.get(args.key_env)
    expected_authorization = f"Bearer {key}" if key is not None else None
    if args.basic_env:
        credentials = os.environ.get(args.basic_env, "").encode("utf-8")
        expected_authorization = "Basic " + base64.b64encode(credentials).decode("ascii")
    server = StubServer((args.host, args.port), Plan(json.loads(args.plan)), args.delay, expected_authorization,
                        args.log, args.stall, args.per_audio_second, Plan(json.loads(args.translate_plan)), args.language)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
