/* journal_words: FTS5's unicode61 tokenizer, with each character of the scripts written
   without spaces between words (Han, kana, Hangul, Thai, Lao, Khmer, Myanmar) a token of
   its own; see search_rank.h for why. Every other token is unicode61's, unchanged, so both
   search indexes read the other scripts alike. */
#include "search_rank.h"

#include <stdlib.h>

typedef struct {
    fts5_tokenizer parent;          /* unicode61's methods */
    Fts5Tokenizer *parent_instance; /* unicode61 made with this tokenizer's arguments */
} Words;

/* Whether a code point belongs to a script whose words are not separated by spaces. */
static int is_spaceless(unsigned cp) {
    return (cp >= 0x0E00 && cp <= 0x0EFF)      /* Thai, Lao */
        || (cp >= 0x1000 && cp <= 0x109F)      /* Myanmar */
        || (cp >= 0x1100 && cp <= 0x11FF)      /* Hangul Jamo */
        || (cp >= 0x1780 && cp <= 0x17FF)      /* Khmer */
        || (cp >= 0x3005 && cp <= 0x3007)      /* 々 〆 〇 */
        || (cp >= 0x3040 && cp <= 0x30FF)      /* Hiragana, Katakana */
        || (cp >= 0x3130 && cp <= 0x318F)      /* Hangul Compatibility Jamo */
        || (cp >= 0x31F0 && cp <= 0x31FF)      /* Katakana Phonetic Extensions */
        || (cp >= 0x3400 && cp <= 0x4DBF)      /* CJK Extension A */
        || (cp >= 0x4E00 && cp <= 0x9FFF)      /* CJK Unified Ideographs */
        || (cp >= 0xAC00 && cp <= 0xD7AF)      /* Hangul Syllables */
        || (cp >= 0xF900 && cp <= 0xFAFF)      /* CJK Compatibility Ideographs */
        || (cp >= 0xFF66 && cp <= 0xFF9F)      /* Halfwidth Katakana */
        || (cp >= 0x20000 && cp <= 0x323AF);   /* CJK Extensions B to H */
}

/* The code point at `text` (at most `left` bytes) and its length in bytes; a byte that
   starts no valid sequence counts as one byte of its own (code point 0: not spaceless). */
static int decode(const unsigned char *text, int left, unsigned *cp) {
    unsigned char lead = text[0];
    int length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
    if (length == 0 || length > left) { *cp = 0; return 1; }
    unsigned value = length == 1 ? lead : lead & (0x7F >> length);
    for (int i = 1; i < length; i++) {
        if ((text[i] & 0xC0) != 0x80) { *cp = 0; return 1; }
        value = (value << 6) | (text[i] & 0x3F);
    }
    *cp = value;
    return length;
}

typedef int (*TokenCallback)(void *context, int flags, const char *token, int size, int start, int end);

/* unicode61's tokens of a stretch of the text, their offsets moved to the whole text's. */
typedef struct {
    void *context;
    TokenCallback token;
    int offset;
} Shift;

static int shifted(void *pointer, int flags, const char *token, int size, int start, int end) {
    Shift *shift = pointer;
    return shift->token(shift->context, flags, token, size, start + shift->offset, end + shift->offset);
}

static int words_create(void *user, const char **arguments, int count, Fts5Tokenizer **out) {
    fts5_api *api = user;
    Words *words = calloc(1, sizeof *words);
    if (!words) return SQLITE_NOMEM;
    void *parent_user = NULL;
    int rc = api->xFindTokenizer(api, "unicode61", &parent_user, &words->parent);
    if (rc == SQLITE_OK) rc = words->parent.xCreate(parent_user, arguments, count, &words->parent_instance);
    if (rc != SQLITE_OK) { free(words); return rc; }
    *out = (Fts5Tokenizer *)words;
    return SQLITE_OK;
}

static void words_delete(Fts5Tokenizer *tokenizer) {
    Words *words = (Words *)tokenizer;
    if (words->parent_instance) words->parent.xDelete(words->parent_instance);
    free(words);
}

static int words_tokenize(Fts5Tokenizer *tokenizer, void *context, int flags, const char *text, int size, TokenCallback token) {
    Words *words = (Words *)tokenizer;
    const unsigned char *bytes = (const unsigned char *)text;
    int at = 0, stretch = 0; /* `stretch`: where the text unicode61 has not seen yet begins */
    int rc = SQLITE_OK;
    while (rc == SQLITE_OK && at < size) {
        unsigned cp;
        int length = decode(bytes + at, size - at, &cp);
        if (!is_spaceless(cp)) { at += length; continue; }
        if (at > stretch) {
            Shift shift = { context, token, stretch };
            rc = words->parent.xTokenize(words->parent_instance, &shift, flags, text + stretch, at - stretch, shifted);
            if (rc != SQLITE_OK) break;
        }
        rc = token(context, 0, text + at, length, at, at + length);
        at += length;
        stretch = at;
    }
    if (rc == SQLITE_OK && size > stretch) {
        Shift shift = { context, token, stretch };
        rc = words->parent.xTokenize(words->parent_instance, &shift, flags, text + stretch, size - stretch, shifted);
    }
    return rc;
}

int search_words_register(sqlite3 *db) {
    fts5_api *fts5 = search_fts5_api(db);
    if (!fts5) return SQLITE_ERROR;
    void *user = NULL;
    fts5_tokenizer existing;
    if (fts5->xFindTokenizer(fts5, "journal_words", &user, &existing) == SQLITE_OK) return SQLITE_OK;
    fts5_tokenizer tokenizer = { words_create, words_delete, words_tokenize };
    return fts5->xCreateTokenizer(fts5, "journal_words", fts5, &tokenizer, NULL);
}
