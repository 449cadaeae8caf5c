#!/usr/bin/env python3
"""A real SMTP server for the mail tests: aiosmtpd 1.4.6 (scripts/mail-setup makes its python)
on 127.0.0.1, with STARTTLS or implicit TLS, AUTH PLAIN and LOGIN, and faults on request.

    smtp_server.py --parse FILE|-
    smtp_server.py --dir DIR [--port 0] [--tls starttls|implicit|none] [--cert PEM --key PEM]
                   [--user NAME --password-env VAR [--auth-only PLAIN|LOGIN]] [--fault KIND] [--count N]

--tls starttls (the default) offers STARTTLS and requires it before anything else (MAIL, AUTH);
implicit is TLS from the first byte (smtps://, port 465's way); none is plain text with no
STARTTLS offered. --cert and --key are the server's certificate and key (PEM): a test makes
them with openssl, one for 127.0.0.1 and one for another name. --user and --password-env
require AUTH (PLAIN or LOGIN, only over TLS unless --tls none) with that login and the password
in the environment variable named (never on the command line); without them no AUTH is asked.
--auth-only offers that one mechanism (LOGIN: the user and the password each answer a 334).

Faults (--fault):
    none            (the default) every message is taken: 250 2.0.0 Ok: queued as <id>
    defer           421 at MAIL for the first --count transactions (default 1), then as none
    reject-rcpt     550 5.1.1 at RCPT TO: no such user
    close-mid-data  after 354 and the first line of the body, the connection is closed
    hang-after-data takes the whole message (it is written) and never answers the final dot
    hang            accepts connections and never says anything (no greeting)

Each message taken is written to --dir as NNNN.eml (the bytes as received, dot-stuffing
removed) and NNNN.json: the envelope (mail_from, rcpt_tos), whether it came over TLS, the
login used, and what Python's email package (policy.default) parses: the headers decoded
(RFC 2047 words undone), each header's raw lines, From's and To's names and addresses, the
Date as ISO 8601, the HTML part's tags and text (as html.parser tells them apart), the text/plain and text/html parts, the
parts' transfer encodings, the defects found, the longest line and whether every line ends
in CRLF. --dir/events.jsonl gets one line per event: a connection, an AUTH (the login and
whether it passed, never the password), a MAIL deferred, a RCPT refused, a DATA cut, a hang.

The port is printed on stdout first thing (--port 0 lets the OS choose). --parse prints the
same summary of a message in a file (or stdin) without serving: what a test composed, read by
the email package without sending it.
"""
import argparse
import asyncio
import email
import email.policy
import html.parser
import json
import logging
import os
import signal
import ssl
import sys
import threading
import time
import warnings

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

args = None
lock = threading.Lock()
counter = {"messages": 0, "mail": 0}


def event(kind, **fields):
    fields.update({"event": kind, "at": time.time()})
    with lock:
        with open(os.path.join(args.dir, "events.jsonl"), "a", encoding="utf-8") as log:
            log.write(json.dumps(fields) + "\n")


class HTMLWords(html.parser.HTMLParser):
    """The tags and the text of an HTML part, as a browser would tell them apart."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.words = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)

    def handle_data(self, data):
        self.words.append(data)


def summary(raw, envelope=None, session=None):
    """What the email package makes of the message, for the tests' assertions."""
    message = email.message_from_bytes(raw, policy=email.policy.default)
    headers = {}
    raw_headers = {}
    for name, value in message.items():
        headers.setdefault(name, str(value))
    # The header section as it came, unfolded per header: each header's physical lines.
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii", "replace").split("\r\n")
    current = None
    for line in head:
        if line[:1] in (" ", "\t") and current:
            raw_headers[current].append(line)
        elif ":" in line:
            current = line.split(":", 1)[0]
            raw_headers.setdefault(current, []).append(line)
    plain = message.get_body(preferencelist=("plain",))
    html = message.get_body(preferencelist=("html",))
    lines = raw.split(b"\n")
    words = HTMLWords()
    if html is not None:
        words.feed(html.get_content())
    addresses = {}
    for name in ("From", "To"):
        if message[name] is not None:
            addresses[name] = [[a.display_name, a.addr_spec] for a in message[name].addresses]
    date = message["Date"]
    auth = getattr(session, "auth_data", None)
    return {
        "mail_from": envelope.mail_from if envelope else "",
        "rcpt_tos": envelope.rcpt_tos if envelope else [],
        "tls": session is not None and (session.ssl is not None or args.tls == "implicit"),
        "login": auth.login.decode() if auth is not None and hasattr(auth, "login") else None,
        "addresses": addresses,
        "date": date.datetime.isoformat() if date is not None and date.datetime is not None else None,
        "html_tags": words.tags,
        "html_text": "".join(words.words),
        "headers": headers,
        "raw_headers": raw_headers,
        "content_type": message.get_content_type(),
        "parts": [part.get_content_type() for part in message.walk()],
        "encodings": [part.get("Content-Transfer-Encoding") for part in message.walk() if not part.is_multipart()],
        "charsets": [part.get_content_charset() for part in message.walk() if not part.is_multipart()],
        "text": plain.get_content() if plain is not None else None,
        "html": html.get_content() if html is not None else None,
        "defects": [repr(d) for part in message.walk() for d in part.defects],
        "longest_line": max(len(line.rstrip(b"\r")) for line in lines),
        "all_crlf": all(line.endswith(b"\r") for line in lines[:-1]) and lines[-1] == b"",
        "size": len(raw),
    }


class Handler:
    async def handle_MAIL(self, server, session, envelope, address, options):
        with lock:
            counter["mail"] += 1
            number = counter["mail"]
        if args.fault == "defer" and number <= args.count:
            event("deferred", transaction=number)
            return "421 4.3.2 Service not available, try again later"
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 2.1.0 Ok"

    async def handle_RCPT(self, server, session, envelope, address, options):
        if args.fault == "reject-rcpt":
            event("rcpt-refused", address=address)
            return f"550 5.1.1 <{address}>: Recipient address rejected: no such user"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 Ok"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content
        with lock:
            counter["messages"] += 1
            number = counter["messages"]
        name = os.path.join(args.dir, "%04d" % number)
        with open(name + ".eml.part", "wb") as out:
            out.write(raw)
        with open(name + ".json.part", "w", encoding="utf-8") as out:
            json.dump(summary(raw, envelope, session), out, ensure_ascii=False)
        os.rename(name + ".eml.part", name + ".eml")
        os.rename(name + ".json.part", name + ".json")
        if args.fault == "hang-after-data":
            event("hang-after-data", message=number)
            await asyncio.sleep(3600)
        return "250 2.0.0 Ok: queued as VJ%04d" % number


class FaultySMTP(SMTP):
    async def smtp_DATA(self, arg):
        if args.fault != "close-mid-data":
            return await super().smtp_DATA(arg)
        if await self.check_helo_needed() or await self.check_auth_needed("DATA"):
            return
        if not self.envelope.rcpt_tos:
            await self.push("503 Error: need RCPT command")
            return
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        line = await self._reader.readuntil(b"\r\n")
        event("closed-mid-data", received=len(line))
        self.transport.close()
        # Read no more of what was sent: wait to be cancelled as the connection goes.
        await asyncio.Event().wait()


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = (isinstance(auth_data, LoginPassword) and auth_data.login.decode() == args.user
          and auth_data.password.decode() == os.environ.get(args.password_env or "", ""))
    event("auth", mechanism=mechanism, login=auth_data.login.decode() if isinstance(auth_data, LoginPassword) else None,
          success=ok)
    # handled=False on failure: aiosmtpd answers 535 itself.
    return AuthResult(success=ok, handled=ok, auth_data=auth_data if ok else None)


async def hang(reader, writer):
    event("hang")
    try:
        await reader.read()
    finally:
        writer.close()


async def main():
    loop = asyncio.get_running_loop()
    context = None
    if args.tls != "none":
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)

    if args.fault == "hang":
        server = await asyncio.start_server(hang, "127.0.0.1", args.port)
    else:
        def factory():
            event("connection")
            excluded = [m for m in ("PLAIN", "LOGIN") if args.auth_only and m != args.auth_only]
            kwargs = dict(hostname="mail.test.invalid", ident="voicejournal test SMTP",
                          auth_exclude_mechanism=excluded, decode_data=False)
            if args.tls == "starttls":
                kwargs.update(tls_context=context, require_starttls=True)
            if args.user:
                kwargs.update(authenticator=authenticator, auth_required=True,
                              auth_require_tls=args.tls == "starttls")
            return FaultySMTP(Handler(), loop=loop, **kwargs)

        server = await loop.create_server(factory, "127.0.0.1", args.port,
                                          ssl=context if args.tls == "implicit" else None)
    print(server.sockets[0].getsockname()[1], flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    # A test runner may start us from a thread that blocks signals, and a child inherits that
    # mask: unblock the ones that must stop us, or terminate() would go unheard.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT, signal.SIGHUP})
    parser = argparse.ArgumentParser()
    parser.add_argument("--parse", metavar="FILE",
                        help="print what the email package makes of the message in FILE (- for stdin), as JSON, and exit")
    parser.add_argument("--dir")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--tls", choices=["starttls", "implicit", "none"], default="starttls")
    parser.add_argument("--cert")
    parser.add_argument("--key")
    parser.add_argument("--user")
    parser.add_argument("--password-env")
    parser.add_argument("--auth-only", choices=["PLAIN", "LOGIN"], help="offer only this AUTH mechanism")
    parser.add_argument("--fault", default="none",
                        choices=["none", "defer", "reject-rcpt", "close-mid-data", "hang-after-data", "hang"])
    parser.add_argument("--count", type=int, default=1)
    args = parser.parse_args()
    if args.parse:
        data = sys.stdin.buffer.read() if args.parse == "-" else open(args.parse, "rb").read()
        json.dump(summary(data), sys.stdout, ensure_ascii=False)
        sys.exit(0)
    if not args.dir:
        parser.error("--dir is needed to serve")
    if args.tls != "none" and not (args.cert and args.key):
        parser.error("--tls starttls and implicit need --cert and --key")
    # aiosmtpd warns of AUTH without STARTTLS (implicit TLS is TLS all the same) and of its own
    # deprecations: nothing a test reads.
    warnings.simplefilter("ignore")
    logging.getLogger("mail.log").setLevel(logging.CRITICAL)
    os.makedirs(args.dir, exist_ok=True)
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
