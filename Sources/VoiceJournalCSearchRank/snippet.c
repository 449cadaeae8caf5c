/* journal_snippet and journal_first_match: FTS5's snippet() and the first match's place,
   in time linear in a row's matches; see search_rank.h for why. */
#include "search_rank.h"

#include <stdlib.h>
#include <string.h>

/* Returned by a tokenizer callback to stop the tokenizer once the rest of the text cannot
   matter; never an error of its own. */
enum { STOP = SQLITE_DONE };

/* -------- The output string -------- */

/* A growing string. Appending copies at most up to a NUL, and a negative count copies up
   to the NUL, as snippet()'s own "%.*s" appends do. */
typedef struct {
    char *bytes;
    size_t length, capacity;
    int rc;
} Text;

static void append(Text *text, const char *from, int count) {
    if (text->rc != SQLITE_OK || !from) return;
    size_t n = count < 0 ? strlen(from) : strnlen(from, (size_t)count);
    if (!text->bytes || text->length + n + 1 > text->capacity) {
        size_t capacity = text->capacity ? text->capacity : 128;
        while (capacity < text->length + n + 1) capacity *= 2;
        char *grown = realloc(text->bytes, capacity);
        if (!grown) { text->rc = SQLITE_NOMEM; return; }
        text->bytes = grown;
        text->capacity = capacity;
    }
    memcpy(text->bytes + text->length, from, n);
    text->length += n;
    text->bytes[text->length] = 0;
}

/* -------- One column's matches -------- */

typedef struct {
    int phrase;
    int offset;
} Match;

/* The matches in `column`, in FTS5's order (by offset, then phrase). */
static int column_matches(const Fts5ExtensionApi *api, Fts5Context *fts, int column, int all,
                          Match **out, int *count) {
    Match *matches = NULL;
    int found = 0, rc = SQLITE_OK;
    for (int i = 0; rc == SQLITE_OK && i < all; i++) {
        int phrase, in_column, offset;
        rc = api->xInst(fts, i, &phrase, &in_column, &offset);
        if (rc != SQLITE_OK || in_column != column) continue;
        if (!matches) {
            matches = malloc(sizeof *matches * (size_t)(all - i));
            if (!matches) return SQLITE_NOMEM;
        }
        matches[found++] = (Match){ phrase, offset };
    }
    if (rc != SQLITE_OK) { free(matches); return rc; }
    *out = matches;
    *count = found;
    return SQLITE_OK;
}

/* The matches at offsets [start, end) of a column, kept up to date as both ends move
   forward: what snippet() scores a window by, without walking every match for each window. */
typedef struct {
    const Fts5ExtensionApi *api;
    Fts5Context *fts;
    int *per_phrase;  /* matches of each phrase inside */
    int phrases;      /* phrases with at least one match inside */
    int inside;       /* matches inside */
    int low, high;    /* inside: the matches [low, high) */
} Window;

static void slide(Window *window, const Match *matches, int count, sqlite3_int64 start, sqlite3_int64 end) {
    while (window->low < count && matches[window->low].offset < start) {
        if (window->low < window->high) {
            if (--window->per_phrase[matches[window->low].phrase] == 0) window->phrases--;
            window->inside--;
        }
        window->low++;
    }
    if (window->high < window->low) window->high = window->low;
    while (window->high < count && matches[window->high].offset < end) {
        if (window->per_phrase[matches[window->high].phrase]++ == 0) window->phrases++;
        window->inside++;
        window->high++;
    }
}

/* snippet()'s score of the window: 1000 for each phrase in it, 1 for each further match. */
static int window_score(const Window *window) {
    return 1000 * window->phrases + (window->inside - window->phrases);
}

/* Where snippet() starts the text it shows for this window: its matches centred, kept
   within the column. */
static int window_start(const Window *window, const Match *matches, int tokens, int column_size) {
    sqlite3_int64 first = -1, last = 0;
    if (window->high > window->low) {
        const Match *final = &matches[window->high - 1];
        first = matches[window->low].offset;
        last = final->offset + window->api->xPhraseSize(window->fts, final->phrase);
    }
    sqlite3_int64 start = first - (tokens - (last - first)) / 2;
    if (start + tokens > column_size) start = column_size - tokens;
    if (start < 0) start = 0;
    return (int)start;
}

/* -------- Sentences -------- */

/* The first token of each sentence of a column, up to the token `last` (no window starts
   after the last match). */
typedef struct {
    const char *text;
    int position, last;
    int *starts;
    int count, capacity;
} Sentences;

static int sentence_token(void *context, int flags, const char *token, int size, int start, int end) {
    (void)token; (void)size; (void)end;
    Sentences *sentences = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (sentences->position > sentences->last) return STOP;
    int begins = sentences->position == 0;
    if (!begins) {
        /* A token after a full stop or a colon (and only spaces) starts a sentence. */
        int i;
        char c = 0;
        for (i = start - 1; i >= 0; i--) {
            c = sentences->text[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        }
        begins = i != start - 1 && (c == '.' || c == ':');
    }
    if (begins) {
        if (sentences->count == sentences->capacity) {
            int capacity = sentences->capacity ? sentences->capacity * 2 : 64;
            int *grown = realloc(sentences->starts, sizeof(int) * (size_t)capacity);
            if (!grown) return SQLITE_NOMEM;
            sentences->starts = grown;
            sentences->capacity = capacity;
        }
        sentences->starts[sentences->count++] = sentences->position;
    }
    sentences->position++;
    return SQLITE_OK;
}

static int tokenized(int rc) { return rc == STOP ? SQLITE_OK : rc; }

/* -------- Choosing the snippet -------- */

typedef struct {
    int score, column, start, column_size;
} Best;

/* Scores every window snippet() would score in `column`, in its order, keeping the first
   best: a window from each match, and one from the start of the match's sentence (worth a
   little more). Each window's score comes from the sliding windows, so a column costs its
   matches once, not once per match. */
static int score_column(const Fts5ExtensionApi *api, Fts5Context *fts, int column, int all, int phrase_count,
                        int tokens, Best *best) {
    Match *matches = NULL;
    int count = 0;
    int rc = column_matches(api, fts, column, all, &matches, &count);
    if (rc != SQLITE_OK || count == 0) { free(matches); return rc; }

    const char *text = NULL;
    int text_size = 0, column_size = 0;
    Sentences sentences = { 0 };
    int *per_phrase = calloc((size_t)phrase_count * 2 + 1, sizeof(int));
    if (!per_phrase) rc = SQLITE_NOMEM;
    if (rc == SQLITE_OK) rc = api->xColumnText(fts, column, &text, &text_size);
    if (rc == SQLITE_OK) {
        sentences.text = text;
        sentences.last = matches[count - 1].offset;
        rc = tokenized(api->xTokenize(fts, text, text_size, &sentences, sentence_token));
    }
    if (rc == SQLITE_OK) rc = api->xColumnSize(fts, column, &column_size);
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        if (matches[i].offset > column_size) rc = SQLITE_CORRUPT_VTAB;
    }

    Window around = { api, fts, per_phrase, 0, 0, 0, 0 };
    Window sentence = { api, fts, per_phrase + phrase_count, 0, 0, 0, 0 };
    int at_sentence = 0, scored_sentence = -1;
    for (int i = 0; rc == SQLITE_OK && i < count; i++) {
        int offset = matches[i].offset;
        slide(&around, matches, count, offset, (sqlite3_int64)offset + tokens);
        int score = window_score(&around);
        if (score > best->score) {
            *best = (Best){ score, column, window_start(&around, matches, tokens, column_size), column_size };
        }
        if (sentences.count && column_size > tokens) {
            while (at_sentence < sentences.count - 1 && sentences.starts[at_sentence + 1] <= offset) at_sentence++;
            int start = sentences.starts[at_sentence];
            /* A sentence window scored before scores the same again and cannot win now. */
            if (start < offset && start != scored_sentence) {
                scored_sentence = start;
                slide(&sentence, matches, count, start, (sqlite3_int64)start + tokens);
                score = window_score(&sentence) + (start == 0 ? 120 : 100);
                if (score > best->score) *best = (Best){ score, column, start, column_size };
            }
        }
    }
    free(sentences.starts);
    free(per_phrase);
    free(matches);
    return rc;
}

/* -------- Writing the snippet -------- */

/* The matches of one column, overlapping ones joined into one: what one pair of marks goes
   around. `start` and `end` are its first and last token; -1 when there are no more. */
typedef struct {
    const Fts5ExtensionApi *api;
    Fts5Context *fts;
    int column, next, all;
    int start, end;
} Joined;

static int joined_next(Joined *joined) {
    int rc = SQLITE_OK;
    joined->start = -1;
    joined->end = -1;
    while (rc == SQLITE_OK && joined->next < joined->all) {
        int phrase, column, offset;
        rc = joined->api->xInst(joined->fts, joined->next, &phrase, &column, &offset);
        if (rc != SQLITE_OK) break;
        if (column == joined->column) {
            int end = offset - 1 + joined->api->xPhraseSize(joined->fts, phrase);
            if (joined->start < 0) {
                joined->start = offset;
                joined->end = end;
            } else if (offset <= joined->end) {
                if (end > joined->end) joined->end = end;
            } else {
                break;
            }
        }
        joined->next++;
    }
    return rc;
}

/* The shown tokens [range_start, range_end] of the text, matches between the marks. */
typedef struct {
    const char *text;
    const char *open, *close;
    int range_start, range_end;
    Joined joined;
    int position;  /* the next token's */
    int copied;    /* bytes of the text already in `out` */
    Text out;
} Marking;

static int marking_token(void *context, int flags, const char *token, int size, int start, int end) {
    (void)token; (void)size;
    Marking *m = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    int position = m->position++;
    if (m->range_end > 0) {
        if (position > m->range_end) return STOP;
        if (position < m->range_start) return SQLITE_OK;
        if (m->range_start && position == m->range_start) m->copied = start;
    }
    if (position == m->joined.start) {
        append(&m->out, m->text + m->copied, start - m->copied);
        append(&m->out, m->open, -1);
        m->copied = start;
    }
    if (position == m->joined.end) {
        if (m->range_end && m->joined.start < m->range_start) append(&m->out, m->open, -1);
        append(&m->out, m->text + m->copied, end - m->copied);
        append(&m->out, m->close, -1);
        m->copied = end;
        int rc = joined_next(&m->joined);
        if (rc != SQLITE_OK) return rc;
    }
    if (m->range_end > 0 && position == m->range_end) {
        append(&m->out, m->text + m->copied, end - m->copied);
        m->copied = end;
        if (position >= m->joined.start && position < m->joined.end) append(&m->out, m->close, -1);
    }
    return m->out.rc;
}

static const char *text_value(sqlite3_value *value) {
    const char *text = (const char *)sqlite3_value_text(value);
    return text ? text : "";
}

/* journal_snippet(table, column, open, close, ellipsis, tokens): snippet()'s arguments. */
static void journal_snippet(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                            int argument_count, sqlite3_value **arguments) {
    if (argument_count != 5) {
        sqlite3_result_error(context, "wrong number of arguments to function journal_snippet()", -1);
        return;
    }
    int wanted = sqlite3_value_int(arguments[0]);
    const char *ellipsis = text_value(arguments[3]);
    int tokens = sqlite3_value_int(arguments[4]);
    int columns = api->xColumnCount(fts), all = 0;
    int rc = api->xInstCount(fts, &all);
    Best best = { 0, wanted >= 0 ? wanted : 0, 0, 0 };
    for (int column = 0; rc == SQLITE_OK && column < columns; column++) {
        if (wanted < 0 || wanted == column) rc = score_column(api, fts, column, all, api->xPhraseCount(fts), tokens, &best);
    }

    Marking m = { 0 };
    m.open = text_value(arguments[1]);
    m.close = text_value(arguments[2]);
    int text_size = 0;
    if (rc == SQLITE_OK) rc = api->xColumnText(fts, best.column, &m.text, &text_size);
    if (rc == SQLITE_OK && best.column_size == 0) rc = api->xColumnSize(fts, best.column, &best.column_size);
    if (m.text) {
        m.joined = (Joined){ api, fts, best.column, 0, all, -1, -1 };
        if (rc == SQLITE_OK) rc = joined_next(&m.joined);
        m.range_start = best.start;
        m.range_end = best.start + tokens - 1;
        if (best.start > 0) append(&m.out, ellipsis, -1);
        while (rc == SQLITE_OK && m.joined.start >= 0 && m.joined.start < best.start) rc = joined_next(&m.joined);
        if (rc == SQLITE_OK) rc = tokenized(api->xTokenize(fts, m.text, text_size, &m, marking_token));
        if (m.range_end >= best.column_size - 1) append(&m.out, m.text + m.copied, text_size - m.copied);
        else append(&m.out, ellipsis, -1);
        if (rc == SQLITE_OK) rc = m.out.rc;
    }
    if (rc == SQLITE_OK) sqlite3_result_text(context, m.out.bytes, -1, SQLITE_TRANSIENT);
    else sqlite3_result_error_code(context, rc);
    free(m.out.bytes);
}

/* -------- The first match -------- */

typedef struct {
    int position, wanted;
    int start;  /* the wanted token's first byte; -1 until it is reached */
} Finding;

static int finding_token(void *context, int flags, const char *token, int size, int start, int end) {
    (void)token; (void)size; (void)end;
    Finding *finding = context;
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (finding->position++ < finding->wanted) return SQLITE_OK;
    finding->start = start;
    return STOP;
}

/* journal_first_match(table, column): see search_rank.h. */
static void journal_first_match(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                                int argument_count, sqlite3_value **arguments) {
    if (argument_count != 1) {
        sqlite3_result_error(context, "wrong number of arguments to function journal_first_match()", -1);
        return;
    }
    int column = sqlite3_value_int(arguments[0]), all = 0, offset = -1;
    int rc = api->xInstCount(fts, &all);
    for (int i = 0; rc == SQLITE_OK && i < all && offset < 0; i++) {
        int phrase, in_column, at;
        rc = api->xInst(fts, i, &phrase, &in_column, &at);
        if (rc == SQLITE_OK && in_column == column) offset = at;
    }
    const char *text = NULL;
    int size = 0;
    Finding finding = { 0, offset, -1 };
    if (rc == SQLITE_OK && offset >= 0) rc = api->xColumnText(fts, column, &text, &size);
    if (rc == SQLITE_OK && text) rc = tokenized(api->xTokenize(fts, text, size, &finding, finding_token));
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }
    if (finding.start < 0) { sqlite3_result_null(context); return; }
    /* Unicode scalars before it: every byte that does not continue a UTF-8 sequence. */
    sqlite3_int64 scalars = 0;
    for (int i = 0; i < finding.start; i++) scalars += ((unsigned char)text[i] & 0xC0) != 0x80;
    sqlite3_result_int64(context, scalars);
}

int search_snippet_register(sqlite3 *db) {
    fts5_api *fts5 = search_fts5_api(db);
    if (!fts5) return SQLITE_ERROR;
    int rc = fts5->xCreateFunction(fts5, "journal_snippet", NULL, journal_snippet, NULL);
    if (rc == SQLITE_OK) rc = fts5->xCreateFunction(fts5, "journal_first_match", NULL, journal_first_match, NULL);
    return rc;
}
