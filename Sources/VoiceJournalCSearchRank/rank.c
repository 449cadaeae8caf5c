/* journal_rank: FTS5's bm25 with a walking row-length cursor; see search_rank.h for why. */
#include "search_rank.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Per query: bm25's constants for this query, and the cursor over the docsize table. */
typedef struct {
    int phrases;
    double average_length;
    double *idf;
    double *frequency;
    sqlite3_stmt *sizes;     /* SELECT id, sz FROM <docsize> WHERE id >= ? ORDER BY id */
    sqlite3_int64 at;        /* the rowid the cursor stands on, when `on_row` */
    int on_row;
} Query;

typedef struct {
    char *select_sizes;
} Registration;

/* A row further ahead than this is sought rather than walked to. */
enum { WALK_LIMIT = 16 };

static void free_query(void *pointer) {
    Query *query = pointer;
    sqlite3_finalize(query->sizes);
    free(query->idf);
    free(query->frequency);
    free(query);
}

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *count) {
    (void)api; (void)fts;
    (*(sqlite3_int64 *)count)++;
    return SQLITE_OK;
}

/* The constants bm25 computes once per query, computed the same way. */
static int start_query(const Fts5ExtensionApi *api, Fts5Context *fts, Query **out) {
    Query *query = calloc(1, sizeof *query);
    if (!query) return SQLITE_NOMEM;
    query->phrases = api->xPhraseCount(fts);
    query->idf = calloc((size_t)query->phrases + 1, sizeof(double));
    query->frequency = calloc((size_t)query->phrases + 1, sizeof(double));
    if (!query->idf || !query->frequency) { free_query(query); return SQLITE_NOMEM; }
    sqlite3_int64 rows = 0, tokens = 0;
    int rc = api->xRowCount(fts, &rows);
    if (rc == SQLITE_OK) rc = api->xColumnTotalSize(fts, -1, &tokens);
    if (rc == SQLITE_OK) query->average_length = (double)tokens / (double)rows;
    for (int i = 0; rc == SQLITE_OK && i < query->phrases; i++) {
        sqlite3_int64 hits = 0;
        rc = api->xQueryPhrase(fts, i, &hits, count_row);
        if (rc == SQLITE_OK) {
            double idf = log((rows - hits + 0.5) / (hits + 0.5));
            query->idf[i] = idf <= 0.0 ? 1e-6 : idf;
        }
    }
    if (rc == SQLITE_OK) rc = api->xSetAuxdata(fts, query, free_query);
    else free_query(query);
    if (rc == SQLITE_OK) *out = query;
    return rc;
}

/* The sum of a docsize record's varints: the row's length in tokens over all columns. */
static int record_length(const unsigned char *bytes, int count) {
    int total = 0, i = 0;
    while (i < count) {
        unsigned int value = 0;
        for (int k = 0; i < count && k < 9; k++) {
            unsigned char byte = bytes[i++];
            value = (value << 7) | (byte & 0x7f);
            if (!(byte & 0x80)) break;
        }
        total += (int)value;
    }
    return total;
}

static int seek(Query *query, sqlite3_int64 rowid) {
    sqlite3_reset(query->sizes);
    sqlite3_bind_int64(query->sizes, 1, rowid);
    int rc = sqlite3_step(query->sizes);
    query->on_row = rc == SQLITE_ROW;
    if (query->on_row) query->at = sqlite3_column_int64(query->sizes, 0);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* `rowid`'s length in tokens, walking forward from where the cursor stands when it can. */
static int row_length(sqlite3_context *context, const Registration *registration, Query *query,
                      sqlite3_int64 rowid, int *length) {
    if (!query->sizes) {
        int rc = sqlite3_prepare_v2(sqlite3_context_db_handle(context), registration->select_sizes, -1,
                                    &query->sizes, NULL);
        if (rc != SQLITE_OK) return rc;
    }
    /* Rowids in the table are distinct and ascending, so a row at most WALK_LIMIT ahead is
       at most WALK_LIMIT steps away; anything else is sought. */
    if (!query->on_row || rowid < query->at || rowid - query->at > WALK_LIMIT) {
        int rc = seek(query, rowid);
        if (rc != SQLITE_OK) return rc;
    }
    while (query->on_row && query->at < rowid) {
        int rc = sqlite3_step(query->sizes);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) return rc;
        query->on_row = rc == SQLITE_ROW;
        if (query->on_row) query->at = sqlite3_column_int64(query->sizes, 0);
    }
    /* Every indexed row has a docsize row; one missing means a damaged index, as for bm25. */
    if (!query->on_row || query->at != rowid) return SQLITE_CORRUPT_VTAB;
    *length = record_length(sqlite3_column_blob(query->sizes, 1), sqlite3_column_bytes(query->sizes, 1));
    return SQLITE_OK;
}

static void journal_rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *context,
                         int argument_count, sqlite3_value **arguments) {
    Query *query = api->xGetAuxdata(fts, 0);
    int rc = query ? SQLITE_OK : start_query(api, fts, &query);
    int instances = 0;
    if (rc == SQLITE_OK) {
        memset(query->frequency, 0, sizeof(double) * (size_t)query->phrases);
        rc = api->xInstCount(fts, &instances);
    }
    for (int i = 0; rc == SQLITE_OK && i < instances; i++) {
        int phrase, column, offset;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK) {
            double weight = argument_count > column ? sqlite3_value_double(arguments[column]) : 1.0;
            query->frequency[phrase] += weight;
        }
    }
    int length = 0;
    if (rc == SQLITE_OK) rc = row_length(context, api->xUserData(fts), query, api->xRowid(fts), &length);
    if (rc != SQLITE_OK) { sqlite3_result_error_code(context, rc); return; }

    const double k1 = 1.2, b = 0.75, D = (double)length;
    double score = 0.0;
    for (int i = 0; i < query->phrases; i++) {
        score += query->idf[i] * ((query->frequency[i] * (k1 + 1.0))
                                  / (query->frequency[i] + k1 * (1 - b + b * D / query->average_length)));
    }
    sqlite3_result_double(context, -1.0 * score);
}

static void free_registration(void *pointer) {
    Registration *registration = pointer;
    sqlite3_free(registration->select_sizes);
    free(registration);
}

int search_rank_register(sqlite3 *db, const char *docsize_table) {
    return search_rank_register_named(db, "journal_rank", docsize_table);
}

fts5_api *search_fts5_api(sqlite3 *db) {
    fts5_api *fts5 = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) != SQLITE_OK) return NULL;
    sqlite3_bind_pointer(statement, 1, (void *)&fts5, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    if (sqlite3_finalize(statement) != SQLITE_OK) return NULL;
    return fts5 && fts5->iVersion >= 2 ? fts5 : NULL;
}

int search_rank_register_named(sqlite3 *db, const char *name, const char *docsize_table) {
    fts5_api *fts5 = search_fts5_api(db);
    if (!fts5) return SQLITE_ERROR;

    Registration *registration = calloc(1, sizeof *registration);
    if (!registration) return SQLITE_NOMEM;
    registration->select_sizes = sqlite3_mprintf("SELECT id, sz FROM \"%w\" WHERE id >= ? ORDER BY id", docsize_table);
    if (!registration->select_sizes) { free(registration); return SQLITE_NOMEM; }
    int rc = fts5->xCreateFunction(fts5, name, registration, journal_rank, free_registration);
    if (rc != SQLITE_OK) free_registration(registration);  /* FTS5 keeps it only on success */
    return rc;
}
