#ifndef VOICEJOURNAL_SEARCH_RANK_H
#define VOICEJOURNAL_SEARCH_RANK_H

#include <sqlite3.h>

/* Registers the FTS5 ranking function `journal_rank(table, weights...)` on `db`: the same
   score as FTS5's own bm25() (same formula, same arguments, bit for bit the same result),
   made faster on words found in many rows. bm25() looks up every matching row's length in
   the table's `<table>_docsize` shadow table with a fresh statement step and seek per row,
   which is nearly all of its time on a word in half the journal; journal_rank walks one
   cursor over that table forward alongside the match scan (which visits rows in rowid
   order), so each row's length costs a step instead of a seek. Rows visited out of order
   still get the right length (the cursor seeks again).

   `docsize_table` is the shadow table of the one FTS5 table this will rank (it is read by
   name, so the function must only be used on that table). Returns an SQLite result code. */
int search_rank_register(sqlite3 *db, const char *docsize_table);

/* The same function under another name, for another FTS5 table. */
int search_rank_register_named(sqlite3 *db, const char *name, const char *docsize_table);

/* Registers the FTS5 tokenizer `journal_words` on `db` (once; again is a no-op): FTS5's
   unicode61 (taking the same arguments, e.g. `remove_diacritics 2`), except that each
   character of a script written without spaces between words (Han, Hiragana, Katakana,
   Hangul, Thai, Lao, Khmer, Myanmar) is a token of its own. unicode61 makes a whole
   Chinese or Japanese sentence one token, so a word inside it could not be found; as
   single characters, a query word becomes a phrase of its characters (FTS5 makes the
   several tokens of one query word a phrase) and matches wherever they stand together.
   Offsets are the original text's, so snippets and highlights stay exact. A table made
   with it cannot be opened where it is not registered (an older voicejournal, the sqlite3
   shell), so only the second index of the scripts without spaces uses it. Returns an SQLite result code. */
int search_words_register(sqlite3 *db);

/* Registers two FTS5 functions for showing a hit (once per connection):

   `journal_snippet(table, column, open, close, ellipsis, tokens)`: FTS5's snippet(), with
   the same arguments and the same text, in time linear in the row's matches. snippet()
   scores a window from each match by walking every match of the row again (and looks for
   each match's sentence from the column's first one), so a transcript with thousands of
   matches took seconds to minutes; here the windows slide over the matches once, and the
   text is read only as far as the last match (to find sentences) and the shown window.

   `journal_first_match(table, column)`: where the row's first match in `column` begins, in
   Unicode scalars from the column's start (what a hit's time in the recording is found
   from); NULL when the column has no match. The column is read only up to that match.
   Returns an SQLite result code. */
int search_snippet_register(sqlite3 *db);

/* A search's time limit: once CLOCK_MONOTONIC reaches `deadline` (nanoseconds, as
   search_deadline_now() tells them), the statement running on `db` stops with
   SQLITE_INTERRUPT, and so does every later one until the deadline is taken away with a
   deadline of 0. SQLite's progress handler looks at the clock between virtual machine
   steps, so a search stops within microseconds of its deadline, except inside one call of
   an auxiliary function (which is why the snippet above is linear). It replaces any other
   progress handler of `db`. */
void search_deadline_set(sqlite3 *db, sqlite3_int64 deadline);
sqlite3_int64 search_deadline_now(void);

/* The FTS5 API of `db` (version 2 or later), through SQLite's documented `SELECT fts5(?)`
   pointer handshake; NULL when FTS5 is missing or older. The registrations use it. */
fts5_api *search_fts5_api(sqlite3 *db);

#endif
