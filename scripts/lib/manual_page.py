#!/usr/bin/env python3
"""Finishes the manual page generate-manual writes: what `--help` says and the page does not,
and the sections no command definition holds.

    python3 scripts/lib/manual_page.py PAGE SECTIONS HELP_JSON > FINISHED

PAGE is the plugin's mdoc page; HELP_JSON the binary's `--experimental-dump-help`, the
description the page was made from. Each option's values and default are added to its text the
way `--help` words them ("(values: wav, flac; default: wav)"): the plugin leaves them out.
SECTIONS is mdoc text of whole sections (`.Sh ENVIRONMENT`, `.Sh FILES`, `.Sh EXAMPLES`…):
each goes to its conventional place among the page's sections, and one the page has already
(EXIT STATUS) is added to the end of it. Deterministic: the same inputs give the same bytes.
"""

import json
import sys

# mdoc's order of sections (mdoc(7)).
ORDER = ["NAME", "LIBRARY", "SYNOPSIS", "DESCRIPTION", "CONTEXT", "IMPLEMENTATION NOTES",
         "RETURN VALUES", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES", "DIAGNOSTICS",
         "ERRORS", "SEE ALSO", "STANDARDS", "HISTORY", "AUTHORS", "CAVEATS", "BUGS",
         "SECURITY CONSIDERATIONS"]


def values_and_default(argument):
    """What `--help` adds after an argument's text (swift-argument-parser's HelpGenerator)."""
    values = [] if argument.get("allValueDescriptions") else [v for v in argument.get("allValues") or [] if v]
    default = argument.get("defaultValue") or ""
    values, default = [v.replace("\\", "\\e") for v in values], default.replace("\\", "\\e")  # roff's backslash
    if values and default:
        return f"(values: {', '.join(values)}; default: {default})"
    if values:
        return f"(values: {', '.join(values)})"
    if default:
        return f"(default: {default})"
    return None


def items(command):
    """The page's items in its order: each shown argument of a command, then each subcommand
    (an `.It Em name` item) with its own items after it."""
    for argument in command.get("arguments") or []:
        if argument.get("shouldDisplay"):
            yield "argument", argument
    for subcommand in command.get("subcommands") or []:
        yield "command", subcommand
        yield from items(subcommand)


def with_values_and_defaults(lines, root):
    """Adds each argument's values and default after its abstract, where `--help` has them.
    Items are matched to the description in order, in the lists that hold commands' items (a
    list opened in an argument's text is a list of that argument's values)."""
    expected = iter(items(root))
    finished, pending = [], None
    lists = []  # each open list: [whether it holds a command's items, whether its last item is a command]
    in_description = False
    for number, line in enumerate(lines, 1):
        if pending and line.startswith("."):  # the abstract's text ends at the first macro
            finished.append(pending)
            pending = None
        finished.append(line)
        macro = line.split(" ", 1)[0]
        if macro == ".Sh":
            in_description = line == ".Sh DESCRIPTION"
        if not in_description:
            continue
        if macro == ".Bl":
            lists.append([not lists or (lists[-1][0] and lists[-1][1]), False])
        elif macro == ".El":
            lists.pop()
        elif macro == ".It" and lists and lists[-1][0]:
            kind, entry = next(expected, (None, None))
            is_command = line.startswith(".It Em ")
            if kind != ("command" if is_command else "argument"):
                sys.exit(f"make-manual: line {number} of the page ({line}) is not the {kind or 'end'} "
                         "the binary's description has there")
            lists[-1][1] = is_command
            pending = None if is_command else values_and_default(entry)
    if pending:
        finished.append(pending)
    if next(expected, None) is not None:
        sys.exit("make-manual: the page has fewer items than the binary's description")
    return finished


def sections(lines):
    """(title, lines) for each `.Sh`; what comes before the first has the title None."""
    parts = [(None, [])]
    for line in lines:
        if line.startswith(".Sh "):
            parts.append((line[4:].strip('"'), [line]))
        else:
            parts[-1][1].append(line)
    return parts


def main(page_path, sections_path, help_path):
    with open(page_path, encoding="utf-8") as page:
        page_lines = page.read().rstrip("\n").split("\n")
    with open(sections_path, encoding="utf-8") as added:
        added_lines = [line for line in added.read().rstrip("\n").split("\n") if not line.startswith('.\\"')]
    with open(help_path, encoding="utf-8") as description:
        root = json.load(description)["command"]

    page = sections(with_values_and_defaults(page_lines, root))
    head, page = page[0][1], page[1:]
    preamble, added = sections(added_lines)[0][1], sections(added_lines)[1:]
    if any(line.strip() for line in preamble):
        sys.exit(f"make-manual: {sections_path} has text before its first .Sh")
    for title, lines in added:
        if title not in ORDER:
            sys.exit(f"make-manual: {sections_path}: {title} is not a section mdoc knows")
        same = [part for part in page if part[0] == title]
        if same:
            same[0][1].extend(lines[1:])
        else:
            page.append((title, lines))
    page.sort(key=lambda part: ORDER.index(part[0]) if part[0] in ORDER else len(ORDER))
    print("\n".join(head + [line for _, lines in page for line in lines]))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: manual_page.py PAGE SECTIONS HELP_JSON")
    main(*sys.argv[1:])
