#!/usr/bin/env python3
"""The docs as an install ships them: README.md and docs/*.md in the source tree's layout, for
a reader who has the installed commands and no source tree.

    python3 scripts/lib/installed_docs.py ROOT OUT

Writes OUT/README.md, OUT/docs/PAGE.md for each user page and the images they show, and prints
each written path (relative to OUT) on a line. Deterministic: the same sources give the same
bytes. Each page is changed only thus:

- `<!-- checkout -->` ... `<!-- /checkout -->` (within a line, across lines, or on lines of their
  own) is left out: what only a source tree has (scripts/demo, scripts/test, scripts/bench...).
- `<!-- installed: TEXT -->` becomes TEXT: what the installed copy says instead.
- The source tree's commands get their installed names: whisper-server/whisper-server is
  voicejournal-whisper-server, whisper-server/whisper-setup voicejournal-whisper-setup (and
  chat-server/chat-server, chat-server/chat-setup likewise voicejournal-chat-server,
  voicejournal-chat-setup), `man ./docs/voicejournal.1` is `man voicejournal`.
- A link to a page or file that is not installed (the developer pages, the manual page's
  source) becomes its text.

A page that still names scripts/ or a whisper-server/ or chat-server/ path after that is an
error, with its file and line: mark the passage, or say it the installed way.
"""

import os
import re
import sys

# Pages for those who work on voicejournal: they stay in the source tree.
DEVELOPER_PAGES = ("docs/testing.md", "docs/benchmarks.md")
IMAGES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")

CHECKOUT, END_CHECKOUT = "<!-- checkout -->", "<!-- /checkout -->"
INSTALLED = re.compile(r"<!-- installed:[ \n](.*?)[ \n]-->", re.S)
RENAMED = [
    (re.compile(r"(?:[\w.$~-]+/)*whisper-server/whisper-(server|setup)\b"), r"voicejournal-whisper-\1"),
    (re.compile(r"(?:[\w.$~-]+/)*chat-server/chat-(server|setup)\b"), r"voicejournal-chat-\1"),
    (re.compile(r"\bscripts/whisper-(server|setup)\b"), r"voicejournal-whisper-\1"),
    (re.compile(r"\bman \./docs/voicejournal\.1\b"), "man voicejournal"),
]
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\]]*\])*)\]\(([^()\s]+)\)")
LEFT_OVER = re.compile(r"scripts/|whisper-server/|chat-server/|<!-- /?checkout|<!-- installed:")


class PageError(Exception):
    pass


def without_checkout(text, name):
    """Leaves out each marked passage; a marker on a line of its own goes with its line, and with
    the blank line after it when one is before it, so no gap is left."""
    kept, position = [], 0
    while (start := text.find(CHECKOUT, position)) >= 0:
        end = text.find(END_CHECKOUT, start)
        if end < 0:
            raise PageError(f"{name}:{line_of(text, start)}: {CHECKOUT} is never closed")
        if CHECKOUT in text[start + len(CHECKOUT):end]:
            raise PageError(f"{name}:{line_of(text, start)}: {CHECKOUT} opened twice")
        if END_CHECKOUT in text[position:start]:
            raise PageError(f"{name}:{line_of(text, position)}: {END_CHECKOUT} without an opening marker")
        kept.append(text[position:start])
        position = end + len(END_CHECKOUT)
        if (start == 0 or text[start - 1] == "\n") and text.startswith("\n", position):
            position += 1
            before = "".join(kept)
            if (before == "" or before.endswith("\n\n")) and text.startswith("\n", position):
                position += 1
    if END_CHECKOUT in text[position:]:
        raise PageError(f"{name}:{line_of(text, text.index(END_CHECKOUT, position))}: "
                        f"{END_CHECKOUT} without an opening marker")
    return "".join(kept) + text[position:]


def renamed(line):
    """The line with the installed names; a comment column after them (`  # ...` in a code
    block) stays where it was."""
    new = line
    for pattern, replacement in RENAMED:
        new = pattern.sub(replacement, new)
    old_column, new_column = re.search(r"  +#", line), re.search(r"  +#", new)
    if new != line and old_column and new_column and new_column.end() < old_column.end():
        new = new[:new_column.start()].ljust(old_column.end() - 1) + new[new_column.end() - 1:]
    return new


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def installed_page(text, name, installed):
    """The page as installed; `installed` holds the paths (relative to the root) that are."""
    text = without_checkout(text, name)
    text = INSTALLED.sub(lambda match: match.group(1), text)
    text = "\n".join(renamed(line) for line in text.split("\n"))
    folder = os.path.dirname(name)

    def link(match):
        image, label, target = match.groups()
        if re.match(r"[a-z][a-z0-9+.-]*:|#", target):  # https:, mailto:, an anchor on this page
            return match.group(0)
        path = os.path.normpath(os.path.join(folder, target.split("#")[0]))
        if path in installed:
            return match.group(0)
        if image:
            raise PageError(f"{name}: the image {target} is not in the source tree")
        return label
    text = LINK.sub(link, text)
    for number, line in enumerate(text.split("\n"), 1):
        if LEFT_OVER.search(line):
            raise PageError(f"{name} (as installed, line {number}) names the source tree: {line.strip()}\n"
                            f"  put the passage between {CHECKOUT} and {END_CHECKOUT}, or say it the installed way")
    return text


def main(root, out):
    pages = ["README.md"] + sorted(f"docs/{page}" for page in os.listdir(os.path.join(root, "docs"))
                                   if page.endswith(".md") and f"docs/{page}" not in DEVELOPER_PAGES)
    texts = {}
    for name in pages:
        with open(os.path.join(root, name), encoding="utf-8") as page:
            texts[name] = page.read()
    # Images a page shows are installed with it, wherever they are linked from.
    images = set()
    for name, text in texts.items():
        for image, _, target in LINK.findall(without_checkout(INSTALLED.sub(r"\1", text), name)):
            path = os.path.normpath(os.path.join(os.path.dirname(name), target.split("#")[0]))
            if image and path.lower().endswith(IMAGES) and os.path.isfile(os.path.join(root, path)):
                images.add(path)
    installed = set(pages) | images
    written = []
    for name in pages:
        text = installed_page(texts[name], name, installed)
        os.makedirs(os.path.dirname(os.path.join(out, name)), exist_ok=True)
        with open(os.path.join(out, name), "w", encoding="utf-8") as page:
            page.write(text)
        written.append(name)
    for path in sorted(images):
        os.makedirs(os.path.dirname(os.path.join(out, path)), exist_ok=True)
        with open(os.path.join(root, path), "rb") as source, open(os.path.join(out, path), "wb") as copy:
            copy.write(source.read())
        written.append(path)
    print("\n".join(written))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: installed_docs.py ROOT OUT")
    try:
        main(sys.argv[1], sys.argv[2])
    except PageError as error:
        sys.exit(f"installed-docs: {error}")
