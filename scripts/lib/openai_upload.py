"""How an OpenAI transcription upload reads on the wire, for the servers that stand in for
OpenAI: the tests' stub (Tests/Servers/whisper_stub.py) and the benchmarks' server
(scripts/bench/bench_server.py). Standard library only.

parse_multipart streams a multipart/form-data body (a file part hashed and counted, never held
in memory unless asked); check holds it to the contract of POST /audio/transcriptions (and
/audio/translations) and says each problem; audio_seconds reads a WAV or FLAC header for the
length of the audio; fit_to_length, spread_words and subtitles shape an answer; UploadHandler
and UploadServer are what both servers do alike (no Nagle delay, OpenAI's error shape, /health,
one JSON line per request in a log).
"""
import hashlib
import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

KNOWN_FIELDS = {"file", "model", "language", "prompt", "response_format", "temperature",
                "timestamp_granularities[]"}
RESPONSE_FORMATS = {"json", "text", "srt", "verbose_json", "vtt"}
# Enough of a file's start to read a WAV or FLAC header for its length.
HEAD_BYTES = 1 << 16


def audio_seconds(head):
    """The length of the audio a WAV (RIFF/RF64 with its data size) or FLAC (STREAMINFO)
    file holds, read from its first bytes; None for other containers or a header it cannot read."""
    try:
        if head[:4] == b"fLaC" and len(head) >= 26:
            info = head[8:26]
            rate = (info[10] << 12) | (info[11] << 4) | (info[12] >> 4)
            samples = ((info[13] & 0x0F) << 32) | int.from_bytes(info[14:18], "big")
            return samples / rate if rate and samples else None
        if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
            at, byte_rate = 12, None
            while at + 8 <= len(head):
                chunk_id, size = head[at:at + 4], int.from_bytes(head[at + 4:at + 8], "little")
                if chunk_id == b"fmt ":
                    byte_rate = int.from_bytes(head[at + 16:at + 20], "little")
                elif chunk_id == b"data":
                    return size / byte_rate if byte_rate else None
                at += 8 + size + (size & 1)
    except (IndexError, ValueError):
        return None
    return None


class Sink:
    """Where a part's bytes go: files are hashed and counted, fields kept (small)."""

    def __init__(self, is_file, keep=False):
        self.is_file = is_file
        self.size = 0
        self.sha = hashlib.sha256()
        self.head = b""
        self.data = bytearray()
        # The whole upload, only for kinds that answer from the audio.
        self.body = bytearray() if keep else None

    def write(self, chunk):
        self.size += len(chunk)
        if self.is_file:
            self.sha.update(chunk)
            if self.body is not None:
                self.body += chunk
            if len(self.head) < HEAD_BYTES:
                self.head += chunk[:HEAD_BYTES - len(self.head)]
        elif len(self.data) < (1 << 20):
            self.data += chunk


def parse_part_headers(raw):
    headers = {}
    for line in raw.decode("utf-8", "replace").split("\r\n"):
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    disposition = headers.get("content-disposition", "")
    params = {}
    for piece in disposition.split(";")[1:]:
        if "=" in piece:
            key, value = piece.strip().split("=", 1)
            if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
                value = value[1:-1]
            params[key.lower()] = value
    return headers, params


def parse_multipart(rfile, length, boundary, keep_file=lambda filename: False):
    """Streams the body; returns a list of (name, filename, content_type, sink). A file part
    for which keep_file(filename) is true is kept whole in its sink's body."""
    remaining = length
    buffer = b""

    def fill():
        nonlocal remaining, buffer
        if remaining <= 0:
            return False
        chunk = rfile.read(min(1 << 20, remaining))
        if not chunk:
            remaining = 0
            return False
        remaining -= len(chunk)
        buffer += chunk
        return True

    first = b"--" + boundary
    while first + b"\r\n" not in buffer:
        if not fill():
            raise ValueError("no opening boundary")
    buffer = buffer[buffer.index(first + b"\r\n") + len(first) + 2:]
    separator = b"\r\n--" + boundary
    parts = []
    while True:
        while b"\r\n\r\n" not in buffer:
            if not fill():
                raise ValueError("part headers cut short")
        end = buffer.index(b"\r\n\r\n")
        headers, params = parse_part_headers(buffer[:end])
        buffer = buffer[end + 4:]
        sink = Sink("filename" in params, keep="filename" in params and keep_file(params.get("filename")))
        while True:
            at = buffer.find(separator)
            if at >= 0:
                sink.write(buffer[:at])
                buffer = buffer[at + len(separator):]
                break
            keep = len(separator) - 1
            if len(buffer) > keep:
                sink.write(buffer[:-keep])
                buffer = buffer[-keep:]
            if not fill():
                raise ValueError("part body cut short")
        parts.append((params.get("name"), params.get("filename"), headers.get("content-type"), sink))
        while len(buffer) < 2:
            if not fill():
                raise ValueError("body ends inside a boundary")
        if buffer[:2] == b"--":
            break
        buffer = buffer[2:]
    while fill():  # drain the epilogue so the connection can be reused
        buffer = b""
    return parts


def check(parts, authorization, expected_authorization, task="transcribe"):
    """The contract of POST /audio/transcriptions (or /audio/translations with task
    "translate"); returns (fields, file_info, problems)."""
    problems = []
    fields = {}
    file_info = None
    for name, filename, content_type, sink in parts:
        if name not in KNOWN_FIELDS:
            problems.append(f"unknown field {name!r}")
            continue
        if task == "translate" and name in ("language", "timestamp_granularities[]"):
            problems.append(f"field {name!r} is not taken by translations")
            continue
        if name == "file":
            if file_info is not None:
                problems.append("more than one file part")
            if not filename:
                problems.append("file part without a filename")
            if not content_type:
                problems.append("file part without a content type")
            if sink.size == 0:
                problems.append("empty file part")
            file_info = {"filename": filename, "content_type": content_type, "bytes": sink.size,
                         "sha256": sink.sha.hexdigest(), "head": sink.head[:16].hex(),
                         "audio_seconds": audio_seconds(sink.head)}
            continue
        if filename is not None:
            problems.append(f"field {name!r} sent as a file")
        fields.setdefault(name, []).append(bytes(sink.data).decode("utf-8", "replace"))
    if file_info is None:
        problems.append("no file part")
    for name, values in fields.items():
        if name != "timestamp_granularities[]" and len(values) > 1:
            problems.append(f"field {name!r} sent {len(values)} times")
    model = fields.get("model", [""])[0]
    if not model:
        problems.append("no model")
    response_format = fields.get("response_format", ["json"])[0]
    if response_format not in RESPONSE_FORMATS:
        problems.append(f"bad response_format {response_format!r}")
    if task == "translate" and model.startswith("gpt-4o"):
        problems.append(f"translations take whisper-1, not {model}")
    if model.startswith("gpt-4o") and response_format not in ("json", "text"):
        problems.append(f"{model} does not support {response_format}")
    for value in fields.get("timestamp_granularities[]", []):
        if value not in ("word", "segment"):
            problems.append(f"bad timestamp_granularities[] {value!r}")
        if response_format != "verbose_json":
            problems.append("timestamp_granularities[] needs verbose_json")
    if "language" in fields:
        language = fields["language"][0]
        # ISO-639-1, or one of Whisper's three-letter codes (haw, yue).
        if len(language) not in (2, 3) or not language.isalpha() or not language.islower():
            problems.append(f"language {language!r} is not a language code")
    if "temperature" in fields:
        try:
            if not 0 <= float(fields["temperature"][0]) <= 1:
                problems.append("temperature out of 0...1")
        except ValueError:
            problems.append(f"temperature {fields['temperature'][0]!r} is not a number")
    if expected_authorization is not None and authorization != expected_authorization:
        problems.append("missing or wrong Authorization header")
    if expected_authorization is None and authorization is not None:
        problems.append("unexpected Authorization header")
    return fields, file_info, problems


def boundary_of(content_type):
    """The boundary a multipart Content-Type names, as bytes; None when it names none."""
    for piece in content_type.split(";")[1:]:
        key, _, value = piece.strip().partition("=")
        if key.lower() == "boundary":
            return value.strip('"').encode()
    return None


def fit_to_length(segments, seconds):
    """Fits segments to audio `seconds` long, as a real server's answer lies within the audio:
    squeezed into a shorter file, the last one running on to the end of a longer one. Unknown
    length (None): left as they are."""
    if seconds and seconds < segments[-1]["end"]:
        scale = seconds / segments[-1]["end"]
        for segment in segments:
            segment["start"], segment["end"] = round(segment["start"] * scale, 3), round(segment["end"] * scale, 3)
    elif seconds:
        segments[-1]["end"] = round(seconds, 3)
    return segments


def spread_words(segments, letters_only=True):
    """The segments' words spread evenly over each; `letters_only`: letters, digits and
    apostrophes only (OpenAI's words carry no punctuation), else the text split at spaces."""
    words = []
    for item in segments:
        parts = item["text"].split()
        if letters_only:
            parts = [part for part in ("".join(c for c in part if c.isalnum() or c == "'") for part in parts) if part]
        step = (item["end"] - item["start"]) / max(len(parts), 1)
        words += [{"word": part, "start": round(item["start"] + i * step, 3),
                   "end": round(item["start"] + (i + 1) * step, 3)} for i, part in enumerate(parts)]
    return words


def subtitles(segments, response_format):
    """The body of an `srt` or `vtt` answer."""
    separator = "," if response_format == "srt" else "."
    cues = [f"{timestamp(s['start'], separator)} --> {timestamp(s['end'], separator)}\n{s['text'].strip()}\n"
            for s in segments]
    if response_format == "srt":
        return "\n".join(f"{i + 1}\n{cue}" for i, cue in enumerate(cues))
    return "WEBVTT\n\n" + "\n".join(cues)


class UploadHandler(BaseHTTPRequestHandler):
    """What both servers' handlers share: HTTP/1.1 keep-alive without Nagle's delay, quiet
    logging, OpenAI's error shape and GET .../health."""
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # Headers and body go out as separate writes; without NODELAY, Nagle holds the body
        # until the client's delayed ACK (~40 ms) and every client looks slow.
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, format, *args):
        pass

    def extra_headers(self):
        """Headers every answer carries besides the content's."""
        return {}

    def send_body(self, status, body, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else body.encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in {**self.extra_headers(), **(headers or {})}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def send_error_json(self, status, message, type_="invalid_request_error", code=None, headers=None):
        body = json.dumps({"error": {"message": message, "type": type_, "param": None, "code": code}})
        self.send_body(status, body, headers=headers)

    def do_GET(self):
        if self.path.rstrip("/").endswith("/health"):
            self.send_body(200, '{"status":"ok"}')
        else:
            self.send_error_json(404, f"no route {self.path}")


class UploadServer(ThreadingHTTPServer):
    """A threaded server that appends one JSON line per request to `log_path` (if any)."""
    daemon_threads = True
    allow_reuse_address = True
    # The default backlog of 5 drops the SYNs of an 8-worker client's first connects, which
    # then retry a second later.
    request_queue_size = 128

    def __init__(self, address, handler, log_path):
        super().__init__(address, handler)
        self.log_path = log_path
        self.lock = threading.Lock()

    def log(self, record):
        if self.log_path:
            with self.lock, open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")


def timestamp(seconds, separator):
    ms = int(round(seconds * 1000))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{separator}{ms % 1000:03d}"
