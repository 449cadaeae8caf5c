"""How an OpenAI transcription upload reads on the wire, for the servers that stand in for
OpenAI: the tests' stub (Tests/Servers/whisper_stub.py) and the benchmarks' server
(scripts/bench/bench_server.py). Standard library only.

parse_multipart streams a multipart/form-data body (a file part hashed and counted, never held
in memory unless asked); check holds it to the contract of POST /audio/transcriptions (and
/audio/translations) and says each problem; audio_seconds reads a WAV or FLAC header for the
length of the audio; timestamp writes SRT and VTT times.
"""
import hashlib

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


def timestamp(seconds, separator):
    ms = int(round(seconds * 1000))
    return f"{ms // 3600000:02d}:{ms // 60000 % 60:02d}:{ms // 1000 % 60:02d}{separator}{ms % 1000:03d}"
