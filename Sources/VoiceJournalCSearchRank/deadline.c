/* A search's time limit, through SQLite's progress handler; see search_rank.h. */
#include "search_rank.h"

#include <stdint.h>
#include <time.h>

/* Virtual machine steps between two looks at the clock: a look costs tens of nanoseconds,
   a hundred steps a few microseconds, so the limit is kept to well under a millisecond. */
enum { STEPS_BETWEEN_LOOKS = 100 };

sqlite3_int64 search_deadline_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (sqlite3_int64)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* The deadline travels as the handler's pointer argument itself, so nothing is allocated
   and nothing has to be freed when the handler is taken away. */
static int past_deadline(void *deadline) {
    return search_deadline_now() >= (sqlite3_int64)(intptr_t)deadline;
}

void search_deadline_set(sqlite3 *db, sqlite3_int64 deadline) {
    if (deadline > 0) sqlite3_progress_handler(db, STEPS_BETWEEN_LOOKS, past_deadline, (void *)(intptr_t)deadline);
    else sqlite3_progress_handler(db, 0, NULL, NULL);
}
