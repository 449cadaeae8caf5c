"""Word error rate for the scripts/bench/bench-* scripts (standard library only): one normalisation
for every path a script compares, so two scripts that report a word error rate mean the same.

Normalisation: bracketed gap markers voicejournal writes ("[unheard 00:14-00:17]") are removed;
lowercase; hyphens and dashes become spaces; other characters that are not letters, digits or
white space are dropped (Tests/VoiceJournalTestSupport/WordErrorRate.swift's rules); then numbers written
in digits become words ("5" -> "five"), and "ok" -> "okay", "alright" -> "all right", "gray" ->
"grey", "neighbor" -> "neighbour".

Imported by the scripts' inline Python: `sys.path.insert(0, <scripts folder>)`.
"""
import re

ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
        "fifteen sixteen seventeen eighteen nineteen").split()
TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
SPELLINGS = {"ok": "okay", "alright": "all right", "gray": "grey", "neighbor": "neighbour"}


def spoken(number):
    """An integer below a million in words: 55 -> fifty five, 1200 -> one thousand two hundred."""
    if number < 20:
        return [ONES[number]]
    if number < 100:
        return [TENS[number // 10]] + (spoken(number % 10) if number % 10 else [])
    if number < 1000:
        return spoken(number // 100) + ["hundred"] + (spoken(number % 100) if number % 100 else [])
    if number < 1_000_000:
        return spoken(number // 1000) + ["thousand"] + (spoken(number % 1000) if number % 1000 else [])
    return [str(number)]


def words(text):
    """The normalised words of `text`, in order."""
    text = re.sub(r"\[unheard[^\]]*\]", " ", text, flags=re.IGNORECASE)
    cleaned = "".join(" " if c in "-\u2010\u2013\u2014" else c for c in text.lower())
    cleaned = "".join(c for c in cleaned if c.isalnum() or c.isspace())
    out = []
    for word in cleaned.split():
        out.extend(spoken(int(word)) if word.isdigit() else SPELLINGS.get(word, word).split())
    return out


def edit_distance(ref, hyp):
    """Word-level Levenshtein distance between two word lists."""
    row = list(range(len(hyp) + 1))
    for i, r in enumerate(ref, 1):
        previous, row[0] = row[0], i
        for j, h in enumerate(hyp, 1):
            previous, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, previous + (r != h))
    return row[-1]


def word_error_rate(pairs):
    """Edit distance summed over (reference, hypothesis) text pairs, divided by the reference
    words: the rate over the whole set, not a mean of per-file rates."""
    errors = spoken_words = 0
    for reference, hypothesis in pairs:
        ref = words(reference)
        errors += edit_distance(ref, words(hypothesis))
        spoken_words += len(ref)
    return errors / spoken_words if spoken_words else 0.0
