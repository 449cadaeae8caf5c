#!/usr/bin/env python3
"""An OpenAI-compatible transcription endpoint for the benchmarks (standard library only): it
answers every good request with the same two-segment transcript after a fixed time, so that
what a benchmark measures is the client.

    python3 scripts/bench/bench_server.py [--port 0] [--delay SEC] [--per-audio-second SEC]
                                          [--key-env NAME] [--log FILE]

POST /v1/audio/transcriptions streams the multipart body (the file part is hashed and counted,
never held in memory), checks the fields a client must send (a file part with a filename and a
content type, a model, a known response_format, the Authorization header when a key is set)
and answers `json`, `verbose_json` (segments, and words when asked), `text`, `srt` or `vtt`.
A request that breaks the contract gets a 400 naming each problem. A good answer waits
--delay seconds, plus --per-audio-second for each second of audio the WAV or FLAC header
says the upload holds (a real server takes time in proportion to the audio).

Every request is appended to --log as one JSON line (received_at, body_done_at, responded_at,
fields, file: filename, content_type, bytes, sha256, audio_seconds; problems; answer: "ok" or
the status) just before its answer is sent. The port is printed on stdout first thing (--port 0
lets the OS choose). GET .../health answers {"status":"ok"}.

How an upload reads on the wire (the multipart body, the checks of its fields, a WAV or FLAC
header's length) is scripts/lib/openai_upload.py, shared by the tests' stub and the benchmarks' server.
"""
import argparse
import json
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from openai_upload import (UploadHandler, UploadServer, boundary_of, check, fit_to_length,  # noqa: E402
                           parse_multipart, spread_words, subtitles)

def transcript(filename, seconds):
    """(text, segments, words) for an upload: two segments, 0-1.5 and 1.5-3.25 s, fitted to the
    audio's length when it is known, each segment's words spread over its time."""
    stem = (filename or "audio").rsplit(".", 1)[0]
    segments = fit_to_length([
        {"id": 0, "seek": 0, "start": 0.0, "end": 1.5, "text": " Transcript of", "tokens": [1, 2],
         "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.0, "no_speech_prob": 0.01},
        {"id": 1, "seek": 0, "start": 1.5, "end": 3.25, "text": f" {stem}.", "tokens": [3],
         "temperature": 0.0, "avg_logprob": -0.2, "compression_ratio": 1.0, "no_speech_prob": 0.01}], seconds)
    return f"Transcript of {stem}.", segments, spread_words(segments, letters_only=False)


class Handler(UploadHandler):
    server_version = "bench-server/1"

    def do_POST(self):
        record = {"received_at": time.time(), "path": self.path}
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            self.send_error_json(411, "Content-Length required")
            return
        if not self.path.rstrip("/").endswith("/audio/transcriptions"):
            self.rfile.read(int(length))
            self.send_error_json(404, f"no route {self.path}")
            return
        content_type = self.headers.get("Content-Type", "")
        boundary = boundary_of(content_type)
        try:
            if not content_type.startswith("multipart/form-data") or not boundary:
                raise ValueError(f"Content-Type {content_type!r} is not multipart/form-data with a boundary")
            parts = parse_multipart(self.rfile, int(length), boundary)
        except ValueError as error:
            self.close_connection = True
            record.update(problems=[f"unparseable body: {error}"], answer="400")
            self.server.log(record)
            self.send_error_json(400, f"could not parse multipart body: {error}")
            return
        fields, file_info, problems = check(parts, self.headers.get("Authorization"), self.server.expected_authorization)
        record.update(body_done_at=time.time(), fields=fields, file=file_info, problems=problems,
                      answer="400" if problems else "ok")
        if not problems:
            seconds = (file_info or {}).get("audio_seconds")
            delay = self.server.delay + self.server.per_audio_second * (seconds or 0)
            if delay > 0:
                time.sleep(delay)
        # Logged before the answer goes out: a client holding its answer finds its request in the log.
        record["responded_at"] = time.time()
        self.server.log(record)
        try:
            if problems:
                self.send_error_json(400, "; ".join(problems))
            else:
                self.answer(fields, file_info)
        except OSError:
            pass

    def answer(self, fields, file_info):
        seconds = file_info.get("audio_seconds")
        text, segments, words = transcript(file_info.get("filename"), seconds)
        duration = round(seconds or 3.25, 3)
        response_format = fields.get("response_format", ["json"])[0]
        if response_format == "json":
            self.send_body(200, json.dumps({"text": text, "usage": {"type": "duration", "seconds": 3}}))
        elif response_format == "verbose_json":
            body = {"task": "transcribe", "language": "english", "duration": duration, "text": text,
                    "segments": segments}
            if "word" in fields.get("timestamp_granularities[]", []):
                body["words"] = words
            self.send_body(200, json.dumps(body))
        elif response_format == "text":
            self.send_body(200, text + "\n", "text/plain; charset=utf-8")
        else:
            self.send_body(200, subtitles(segments, response_format), "text/plain; charset=utf-8")


class BenchServer(UploadServer):
    def __init__(self, address, delay, per_audio_second, expected_authorization, log_path):
        super().__init__(address, Handler, log_path)
        self.delay, self.per_audio_second = delay, per_audio_second
        self.expected_authorization = expected_authorization


def main():
    # Started from a thread that blocks signals, a child inherits the mask: unblock the ones
    # that must stop us, or terminate() would go unheard.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--delay", type=float, default=0, help="seconds before every good answer")
    parser.add_argument("--per-audio-second", type=float, default=0,
                        help="seconds added to every good answer per second of audio received (WAV and FLAC)")
    parser.add_argument("--key-env", help="require the bearer key in this environment variable (default: none)")
    parser.add_argument("--log", help="append one JSON line per request here")
    args = parser.parse_args()
    key = os.environ.get(args.key_env) if args.key_env else None
    server = BenchServer((args.host, args.port), args.delay, args.per_audio_second,
                         f"Bearer {key}" if key is not None else None, args.log)
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
