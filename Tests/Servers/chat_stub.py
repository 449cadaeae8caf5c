#!/usr/bin/env python3
"""An OpenAI-compatible chat endpoint for the tests (standard library only).

POST /v1/chat/completions reads the JSON body, holds it to the API's contract (Content-Type
application/json, a JSON object, a non-empty string `model`, a non-empty list of `messages`
each {role: system|user|assistant, content: a string}, optional `temperature` (a number),
`max_tokens` (a positive integer), `stream` (a boolean), `response_format` in one of the two
forms below) and the Authorization header (`Bearer <key>` when --key-env names a key, absent
when it does not), and answers like the OpenAI API: a chat.completion with usage, or OpenAI's
error shape. A request that breaks the contract gets a 400 naming each problem (a 401 when only
its key is wrong or missing). GET /v1/models lists --model; GET /health answers ok. With
--embeddings, POST /v1/embeddings answers a vector per input (see Handler.embed); without it,
that route is a 404, as on a server that has none.

response_format, the two forms of "answer with JSON of this shape":
    {"type": "json_object", "schema": {...}}    llama.cpp's (the schema is optional)
    {"type": "json_schema", "json_schema": {"name": "...", "schema": {...}, "strict": true}}
--accepts json_object|json_schema|both (default both) says which the server takes. A server
taking only json_object (llama-cpp-python) refuses json_schema with its 500 (the exact body,
pydantic's validation error and a traceback line); one taking only json_schema (OpenAI) refuses
a json_object carrying a `schema` with its 400 "Unrecognized request argument supplied: schema"
(a bare json_object is JSON mode, which OpenAI takes).

Token counts are estimates, the same every time: a prompt is the characters of all its
messages' contents, an answer those of its content, over four, rounded up, at least 1.
--context-tokens N: a request whose prompt estimate exceeds N gets the context-length error
(--context-flavour llama|openai, default llama), whatever the rules say, so a test can watch a
client shrink its prompt until it fits.

Fault injection: --plan takes a JSON list of rules, first match wins:
    [{"match": "Tuesday", "responses": [{"kind": "error", "status": 429, "retry_after": 1}],
      "then": {"kind": "reflect"}}]
"match" is a substring of the content of the request's last user message ("*" matches all).
Each rule walks through its "responses", one per request it matches (counted per rule, not per
text), and gives "then" afterwards (default: reflect). Kinds:
    reflect   (the default) a valid answer built from the request's schema: every required
              property; a string "stub <name>" (cut to maxLength), a number its minimum (0 with
              none), an enum its first value, a boolean false; an array minItems items (an
              array of integers at least one: its enum's first value, else its minimum, or 1);
              with no schema {"summary":"stub"}. "cite": "last" takes an array of integers'
              enum's last value instead (a reflection's highlight of the last sentence sent).
    says      a good answer whose content is "content", as it is (JSON, broken JSON, a fence…).
    length    as says, with finish_reason "length" (an answer cut at max_tokens).
    error     status, code, type, message, retry_after (Retry-After), retry_after_ms
              (retry-after-ms): OpenAI's error shape.
    context   the context-length error, "flavour" llama (llama.cpp's 400 with n_prompt_tokens
              and n_ctx) or openai (400 context_length_exceeded). The limit it names is
              --context-tokens, 8192 without it.
    reset     read the request, start a 200 answer, reset the TCP connection (SO_LINGER 0).
    hang      read the request, log it (responded_at null), never answer: the connection is
              held until the client closes it (or the server stops).
    slow      wait "seconds", then answer as reflect.
    body      a 200 whose body is "body", sent as it is (not JSON, cut JSON…).
    cut       streamed (the request must ask for a stream): the role chunk and the first half of
              "content" in pieces, then the TCP connection is reset (a server gone mid-answer).
--delay seconds are added before every good answer (reflect, says, length, slow, body).
A request with "stream": true gets its good answer (reflect, says, length, slow) as server-sent
events in OpenAI's chunk shape (choices[0].delta.content, the content in a few pieces, then
finish_reason, then `data: [DONE]`), with no usage chunk, as llama.cpp sends; errors stay JSON.

Every request is appended to --log as one JSON line (timings, the client's connection, the
request's fields as sent, the response_format form it used, problems found, what was answered,
the token estimates), just before its answer is sent. The port is printed on stdout first
thing (--port 0 lets the OS choose). The key is never taken on the command line: --key-env
names the environment variable holding it.
"""
import argparse
import hashlib
import json
import math
import os
import re
import signal
import socket
import struct
import sys
import threading
import time

# Keep-alive without Nagle's delay, OpenAI's error shape, a JSON-lines log: what the
# transcription stub's handler and server already do.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from openai_upload import UploadHandler, UploadServer  # noqa: E402

ROLES = {"system", "user", "assistant"}
# Kinds whose answer is a completion with content (streamed when the request asks).
CONTENT_KINDS = {"reflect", "says", "length", "slow"}
DEFAULT_LIMIT = 8192

# llama-cpp-python's answer to the json_schema form (its pydantic model knows only 'text' and
# 'json_object'), as it sends it.
LLAMA_SCHEMA_REFUSAL = (
    '{"error":{"message":"1 validation error:\\n  {\'type\': \'literal_error\', \'loc\': (\'body\', '
    '\'response_format\', \'type\'), \'msg\': \\"Input should be \'text\' or \'json_object\'\\", '
    '\'input\': \'json_schema\', \'ctx\': {\'expected\': \\"\'text\' or \'json_object\'\\"}}\\n\\n  '
    'File \\"/venv/lib/python3.11/site-packages/llama_cpp/server/app.py\\", line 376, in '
    'create_chat_completion\\n    POST /v1/chat/completions","type":"internal_server_error",'
    '"param":null,"code":null}}')
# OpenAI's answer to a json_object carrying a schema.
OPENAI_SCHEMA_REFUSAL = ('{"error":{"message":"Unrecognized request argument supplied: schema",'
                         '"type":"invalid_request_error","param":null,"code":null}}')


def tokens(characters):
    """The stub's token estimate: characters over four, rounded up, at least 1."""
    return max(1, math.ceil(characters / 4))


def prompt_tokens(messages):
    if not isinstance(messages, list):
        return 1
    return tokens(sum(len(m["content"]) for m in messages
                      if isinstance(m, dict) and isinstance(m.get("content"), str)))


def form_of(response_format):
    """"json_object", "json_schema" or "none" (absent, or a form neither API knows)."""
    if isinstance(response_format, dict) and response_format.get("type") in ("json_object", "json_schema"):
        return response_format["type"]
    return "none"


def schema_of(response_format):
    """The schema the request asks its answer to follow, from either form; None without one."""
    if not isinstance(response_format, dict):
        return None
    if response_format.get("type") == "json_object":
        schema = response_format.get("schema")
    elif response_format.get("type") == "json_schema":
        schema = (response_format.get("json_schema") or {}).get("schema")
    else:
        schema = None
    return schema if isinstance(schema, dict) else None


def check(headers, body, expected_authorization):
    """(request, problems, authorization problem): the parsed body (None if it is not a JSON
    object) and every way the request breaks the contract."""
    problems = []
    content_type = headers.get("Content-Type", "")
    if content_type.split(";")[0].strip().lower() != "application/json":
        problems.append(f"Content-Type {content_type!r} is not application/json")
    authorization = headers.get("Authorization")
    auth_problem = None
    if expected_authorization is None and authorization is not None:
        auth_problem = "an Authorization header was sent to a server that takes no key"
    elif expected_authorization is not None and authorization is None:
        auth_problem = "missing Authorization header"
    elif expected_authorization is not None and authorization != expected_authorization:
        auth_problem = "wrong Authorization header"
    if auth_problem:
        problems.append(auth_problem)
    try:
        request = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        problems.append(f"body is not JSON: {error}")
        return None, problems, auth_problem
    if not isinstance(request, dict):
        problems.append("body is not a JSON object")
        return None, problems, auth_problem
    model = request.get("model")
    if not isinstance(model, str) or not model:
        problems.append("model is missing or not a non-empty string")
    messages = request.get("messages")
    if not isinstance(messages, list) or not messages:
        problems.append("messages is missing or not a non-empty list")
    else:
        for index, message in enumerate(messages):
            if not isinstance(message, dict):
                problems.append(f"messages[{index}] is not an object")
                continue
            if message.get("role") not in ROLES:
                problems.append(f"messages[{index}].role {message.get('role')!r} is not system, user or assistant")
            if not isinstance(message.get("content"), str):
                problems.append(f"messages[{index}].content is not a string")
            extra = set(message) - {"role", "content"}
            if extra:
                problems.append(f"messages[{index}] has unknown keys {sorted(extra)}")
    if "temperature" in request:
        temperature = request["temperature"]
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)) or not 0 <= temperature <= 2:
            problems.append("temperature is not a number from 0 to 2")
    if "max_tokens" in request:
        max_tokens = request["max_tokens"]
        if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
            problems.append("max_tokens is not a positive integer")
    if "stream" in request and not isinstance(request["stream"], bool):
        problems.append("stream is not a boolean")
    if "response_format" in request:
        problems += response_format_problems(request["response_format"])
    known = {"model", "messages", "temperature", "max_tokens", "response_format", "stream"}
    extra = set(request) - known
    if extra:
        problems.append(f"unknown request keys {sorted(extra)}")
    return request, problems, auth_problem


def response_format_problems(response_format):
    if not isinstance(response_format, dict):
        return ["response_format is not an object"]
    kind = response_format.get("type")
    if kind == "json_object":
        extra = set(response_format) - {"type", "schema"}
        problems = [f"response_format json_object has unknown keys {sorted(extra)}"] if extra else []
        if "schema" in response_format and not isinstance(response_format["schema"], dict):
            problems.append("response_format.schema is not an object")
        return problems
    if kind == "json_schema":
        problems = []
        extra = set(response_format) - {"type", "json_schema"}
        if extra:
            problems.append(f"response_format json_schema has unknown keys {sorted(extra)}")
        inner = response_format.get("json_schema")
        if not isinstance(inner, dict):
            return problems + ["response_format.json_schema is not an object"]
        if not isinstance(inner.get("name"), str) or not inner.get("name"):
            problems.append("response_format.json_schema.name is missing or not a non-empty string")
        if not isinstance(inner.get("schema"), dict):
            problems.append("response_format.json_schema.schema is not an object")
        if "strict" in inner and not isinstance(inner["strict"], bool):
            problems.append("response_format.json_schema.strict is not a boolean")
        extra = set(inner) - {"name", "schema", "strict", "description"}
        if extra:
            problems.append(f"response_format.json_schema has unknown keys {sorted(extra)}")
        return problems
    return [f"response_format.type {kind!r} is not json_object or json_schema"]


def example(schema, name, root, depth=0, cite="first"):
    """A value that follows `schema` (the subset a reflection's schema uses), for `reflect`;
    `cite` "last" makes an array of integers take its enum's last value."""
    if not isinstance(schema, dict) or depth > 20:
        return None
    reference = schema.get("$ref")
    if isinstance(reference, str) and reference.startswith("#/"):
        target = root
        for part in reference[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        return example(target, name, root, depth + 1, cite)
    for key in ("anyOf", "oneOf"):
        options = [o for o in schema.get(key, []) if isinstance(o, dict) and o.get("type") != "null"]
        if options:
            return example(options[0], name, root, depth + 1, cite)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return schema["enum"][0]
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or (kind is None and "properties" in schema):
        properties = schema.get("properties", {})
        return {key: example(properties.get(key, {}), key, root, depth + 1, cite)
                for key in schema.get("required", []) if isinstance(key, str)}
    if kind == "string":
        text = f"stub {name}"
        if isinstance(schema.get("minLength"), int) and len(text) < schema["minLength"]:
            text += "." * (schema["minLength"] - len(text))
        if isinstance(schema.get("maxLength"), int):
            text = text[:schema["maxLength"]]
        return text
    if kind in ("integer", "number"):
        return number(schema, kind)
    if kind == "boolean":
        return False
    if kind == "array":
        items = schema.get("items", {}) if isinstance(schema.get("items"), dict) else {}
        count = max(schema.get("minItems", 0) if isinstance(schema.get("minItems"), int) else 0, 0)
        if items.get("type") == "integer":
            # An array of integers (say, the sentences a reflection highlights) gets one.
            count = max(count, 1)
            if isinstance(schema.get("maxItems"), int):
                count = min(count, schema["maxItems"])
            enum = items.get("enum")
            if isinstance(enum, list) and enum:
                ordered = list(reversed(enum)) if cite == "last" else enum
                return ordered[:count]
            first = number(items, "integer") if "minimum" in items or "exclusiveMinimum" in items else 1
            values = [first + i for i in range(count)]
            if isinstance(items.get("maximum"), (int, float)):
                values = [min(v, items["maximum"]) for v in values]
            return values
        if isinstance(items.get("enum"), list) and items["enum"]:
            enum = items["enum"]
            return [enum[i % len(enum)] for i in range(count)]
        return [example(items, name, root, depth + 1, cite) for _ in range(count)]
    return None


def number(schema, kind):
    """A number's least allowed value (0 when it has no lower bound and 0 is allowed)."""
    if isinstance(schema.get("minimum"), (int, float)):
        value = schema["minimum"]
    elif isinstance(schema.get("exclusiveMinimum"), (int, float)):
        value = schema["exclusiveMinimum"] + (1 if kind == "integer" else 0.5)
    elif isinstance(schema.get("maximum"), (int, float)) and schema["maximum"] < 0:
        value = schema["maximum"]
    else:
        value = 0
    return int(value) if kind == "integer" else value


def reflection(response_format, cite="first"):
    """The content of a `reflect` answer: an object following the request's schema."""
    schema = schema_of(response_format)
    if schema is None:
        return json.dumps({"summary": "stub"})
    return json.dumps(example(schema, "reflection", schema, cite=cite), ensure_ascii=False)


class Plan:
    def __init__(self, rules):
        self.rules = rules
        self.counts = {}
        self.lock = threading.Lock()

    def behaviour_for(self, text):
        """The behaviour for a request whose last user message says `text`; each rule counts
        the requests it has matched."""
        with self.lock:
            for index, rule in enumerate(self.rules):
                match = rule.get("match", "*")
                if match != "*" and match not in (text or ""):
                    continue
                seen = self.counts.get(index, 0)
                self.counts[index] = seen + 1
                responses = rule.get("responses", [])
                if seen < len(responses):
                    return responses[seen]
                return rule.get("then", {"kind": "reflect"})
        return {"kind": "reflect"}


def last_user_text(request):
    messages = (request or {}).get("messages")
    if not isinstance(messages, list):
        return None
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user" and isinstance(message.get("content"), str):
            return message["content"]
    return None


class Handler(UploadHandler):
    server_version = "chat-stub/1"

    def extra_headers(self):
        return {"x-request-id": f"req_{self.server.next_id()}"}

    def do_GET(self):
        route = self.path.split("?")[0].rstrip("/")
        if route.endswith("/models"):
            self.server.log({"received_at": time.time(), "responded_at": time.time(), "method": "GET",
                             "path": self.path, "connection": self.client_address[1],
                             "header_names": list(self.headers.keys()), "problems": [], "answer": "models"})
            self.send_body(200, json.dumps({"object": "list", "data": [
                {"id": self.server.model, "object": "model", "created": self.server.started, "owned_by": "stub"}]}))
        else:
            super().do_GET()

    def do_POST(self):
        received = time.time()
        record = {"received_at": received, "method": "POST", "path": self.path,
                  "connection": self.client_address[1], "header_names": list(self.headers.keys()),
                  "model": None, "messages": None, "response_format": None, "schema_form": "none",
                  "max_tokens": None, "temperature": None, "stream": None, "problems": [],
                  "authorization_ok": None, "prompt_tokens": None, "completion_tokens": None, "content": None}
        length = self.headers.get("Content-Length")
        if length is None:
            self.close_connection = True
            record.update(problems=["no Content-Length"], answer="411", responded_at=time.time())
            self.server.log(record)
            self.send_error_json(411, "Content-Length required")
            return
        body = self.rfile.read(int(length))
        if self.path.split("?")[0].rstrip("/").endswith("/embeddings") and self.server.concepts is not None:
            self.embed(body, record)
            return
        if not self.path.split("?")[0].rstrip("/").endswith("/chat/completions"):
            record.update(problems=[f"no route {self.path}"], answer="404", responded_at=time.time())
            self.server.log(record)
            self.send_error_json(404, f"no route {self.path}")
            return
        request, problems, auth_problem = check(self.headers, body, self.server.expected_authorization)
        request = request or {}
        response_format = request.get("response_format")
        form = form_of(response_format)
        record.update(model=request.get("model"), messages=request.get("messages"),
                      response_format=response_format, schema_form=form, max_tokens=request.get("max_tokens"),
                      temperature=request.get("temperature"), stream=request.get("stream"), problems=problems,
                      authorization_ok=auth_problem is None, prompt_tokens=prompt_tokens(request.get("messages")))
        self.request_json = request
        behaviour = self.behaviour(request, problems, auth_problem, form, record["prompt_tokens"])
        kind = behaviour.get("kind", "reflect")
        record["answer"] = str(int(behaviour.get("status", 500))) if kind in ("error", "refuse", "context") else kind
        if kind == "hang":
            # Logged when the request is in: the answer never comes. Held until the client
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
        content = None
        if kind in CONTENT_KINDS:
            content = reflection(response_format, behaviour.get("cite", "first")) if kind in ("reflect", "slow") \
                else str(behaviour.get("content", ""))
            record.update(content=content, completion_tokens=tokens(len(content)))
        if kind in CONTENT_KINDS or kind == "body":
            delay = self.server.delay + (float(behaviour.get("seconds", 0)) if kind == "slow" else 0)
            if delay > 0:
                time.sleep(delay)
        # Logged before the answer goes out: a client holding its answer finds its request in
        # the log (tests read it the moment a run ends).
        record["responded_at"] = time.time()
        self.server.log(record)
        try:
            self.answer(behaviour, content, record)
        except (BrokenPipeError, ConnectionResetError, OSError):
            pass

    def embed(self, body, record):
        """POST /v1/embeddings (with --embeddings): a 64-dimension vector per input, the sum of
        a one-hot per word (each word first mapped through the concepts given, so "bike" and
        "bicycle" can mean the same), normalised; logged with the inputs."""
        try:
            request = json.loads(body)
            inputs = request["input"] if isinstance(request["input"], list) else [request["input"]]
            assert all(isinstance(text, str) for text in inputs)
        except (ValueError, KeyError, TypeError, AssertionError):
            record.update(problems=["not an embeddings request"], answer="400", responded_at=time.time())
            self.server.log(record)
            self.send_error_json(400, "input must be a string or a list of strings", "invalid_request_error")
            return
        vectors = []
        for text in inputs:
            vector = [0.0] * 64
            for word in re.findall(r"[a-z0-9]+", text.lower()):
                word = self.server.concepts.get(word, word)
                vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
            norm = math.sqrt(sum(x * x for x in vector)) or 1.0
            vectors.append([x / norm for x in vector])
        record.update(model=request.get("model"), answer="embeddings", responded_at=time.time(), inputs=inputs)
        self.server.log(record)
        self.send_body(200, json.dumps({"object": "list", "model": request.get("model"), "data": [
            {"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)],
            "usage": {"prompt_tokens": sum(tokens(len(t)) for t in inputs), "total_tokens": sum(tokens(len(t)) for t in inputs)}}))

    def behaviour(self, request, problems, auth_problem, form, prompt):
        """What this request gets: the contract's refusals first, then the server's (its
        response_format forms, its context), then the plan."""
        if problems:
            if problems == [auth_problem] and self.server.expected_authorization is not None:
                # Like OpenAI: 401, and a wrong key is quoted (a client must not repeat what a
                # server echoes).
                sent = self.headers.get("Authorization")
                message = "You didn't provide an API key." if sent is None else \
                    f"Incorrect API key provided: {sent.removeprefix('Bearer ')}."
                return {"kind": "error", "status": 401, "code": "invalid_api_key", "message": message}
            return {"kind": "error", "status": 400, "message": "; ".join(problems)}
        accepts = self.server.accepts
        if form == "json_schema" and accepts == "json_object":
            return {"kind": "refuse", "status": 500, "body": LLAMA_SCHEMA_REFUSAL}
        if form == "json_object" and accepts == "json_schema" and "schema" in request["response_format"]:
            return {"kind": "refuse", "status": 400, "body": OPENAI_SCHEMA_REFUSAL}
        if self.server.context_tokens is not None and prompt > self.server.context_tokens:
            return {"kind": "context", "status": 400, "flavour": self.server.context_flavour}
        behaviour = self.server.plan.behaviour_for(last_user_text(request))
        if behaviour.get("kind") == "context":
            behaviour = dict(behaviour, status=400)
        return behaviour

    def answer(self, behaviour, content, record):
        kind = behaviour.get("kind", "reflect")
        if kind == "error":
            headers = {}
            if behaviour.get("retry_after") is not None:
                headers["retry-after"] = str(behaviour["retry_after"])
            if behaviour.get("retry_after_ms") is not None:
                headers["retry-after-ms"] = str(behaviour["retry_after_ms"])
            status = int(behaviour.get("status", 500))
            default_type = {400: "invalid_request_error", 401: "invalid_request_error", 404: "invalid_request_error",
                            429: "requests"}.get(status, "server_error")
            self.send_error_json(status, behaviour.get("message") or f"stub error {status}",
                                 behaviour.get("type") or default_type, behaviour.get("code"), headers)
        elif kind == "refuse":
            self.send_body(behaviour["status"], behaviour["body"])
        elif kind == "context":
            prompt = record["prompt_tokens"]
            limit = self.server.context_tokens if self.server.context_tokens is not None else DEFAULT_LIMIT
            if behaviour.get("flavour", "llama") == "openai":
                error = {"message": f"This model's maximum context length is {limit} tokens. However, your "
                                    f"messages resulted in {prompt} tokens.",
                         "type": "invalid_request_error", "param": "messages", "code": "context_length_exceeded"}
            else:
                error = {"code": 400, "message": "the request exceeds the available context size, try increasing it",
                         "type": "exceed_context_size_error", "n_prompt_tokens": prompt, "n_ctx": limit}
            self.send_body(400, json.dumps({"error": error}))
        elif kind == "reset":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n"
                             b"{\"id\": \"chatcmpl-")
            self.wfile.flush()
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif kind == "cut":
            content = str(behaviour.get("content", ""))
            self.send_stream("chatcmpl-cut", int(time.time()), self.server.model, content[:len(content) // 2], None, cut=True)
        elif kind == "body":
            # A crafted answer, sent as it is (a hostile or broken server).
            self.send_body(200, str(behaviour.get("body", "")))
        elif kind in CONTENT_KINDS:
            finish = "length" if kind == "length" else "stop"
            model = record["model"] if isinstance(record["model"], str) else self.server.model
            completion_id = f"chatcmpl-stub{self.server.next_id()}"
            created = int(time.time())
            if self.request_json.get("stream") is True:
                self.send_stream(completion_id, created, model, content, finish)
                return
            self.send_body(200, json.dumps({
                "id": completion_id, "object": "chat.completion", "created": created, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": finish}],
                "usage": {"prompt_tokens": record["prompt_tokens"], "completion_tokens": record["completion_tokens"],
                          "total_tokens": record["prompt_tokens"] + record["completion_tokens"]}}))
        else:
            self.send_error_json(500, f"the stub has no behaviour {kind!r}", "server_error")

    def send_stream(self, completion_id, created, model, content, finish, cut=False):
        """The answer as server-sent events, chunked: a role chunk, the content in up to four
        pieces, a chunk with the finish reason, then [DONE]; no usage chunk. With cut, the
        connection is reset after the content's pieces instead."""
        def chunk(delta, finish_reason=None):
            return {"id": completion_id, "object": "chat.completion.chunk", "created": created, "model": model,
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
        size = max(1, math.ceil(len(content) / 4))
        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": content[at:at + size]}) for at in range(0, len(content), size)]
        if not cut:
            events.append(chunk({}, finish))
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        for name, value in self.extra_headers().items():
            self.send_header(name, value)
        self.end_headers()
        for data in [json.dumps(event) for event in events] + ([] if cut else ["[DONE]"]):
            payload = f"data: {data}\n\n".encode("utf-8")
            self.wfile.write(f"{len(payload):x}\r\n".encode("ascii") + payload + b"\r\n")
            self.wfile.flush()
            if cut:
                time.sleep(0.05)  # the pieces arrive one by one before the reset
        if cut:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
            return
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


class StubServer(UploadServer):
    def __init__(self, address, plan, delay, expected_authorization, log_path, accepts, context_tokens,
                 context_flavour, model):
        super().__init__(address, Handler, log_path)
        self.plan = plan
        self.delay = delay
        self.expected_authorization = expected_authorization
        self.accepts = accepts
        self.context_tokens = context_tokens
        self.context_flavour = context_flavour
        self.model = model
        self.started = int(time.time())
        self.counter = 0

    def next_id(self):
        with self.lock:
            self.counter += 1
            return self.counter


def main():
    # A test runner may start us from a thread that blocks signals, and a child inherits
    # that mask: unblock the ones that must stop us, or terminate() would go unheard.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--plan", default="[]", help="fault-injection rules (JSON)")
    parser.add_argument("--delay", type=float, default=0, help="seconds before every good answer")
    parser.add_argument("--key-env", help="require the bearer key in this environment variable (default: no key, no header)")
    parser.add_argument("--log", help="append one JSON line per request here")
    parser.add_argument("--accepts", choices=["json_object", "json_schema", "both"], default="both",
                        help="the response_format forms the server takes")
    parser.add_argument("--context-tokens", type=int, help="the context-length error for prompts estimated above this")
    parser.add_argument("--context-flavour", choices=["llama", "openai"], default="llama")
    parser.add_argument("--model", default="stub-chat", help="the model GET /v1/models lists")
    parser.add_argument("--embeddings", help="serve POST /v1/embeddings, words mapped through this JSON object first")
    args = parser.parse_args()
    key = os.environ.get(args.key_env) if args.key_env else None
    expected_authorization = f"Bearer {key}" if key is not None else None
    server = StubServer((args.host, args.port), Plan(json.loads(args.plan)), args.delay, expected_authorization,
                        args.log, args.accepts, args.context_tokens, args.context_flavour, args.model)
    server.concepts = json.loads(args.embeddings) if args.embeddings is not None else None
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.1)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
