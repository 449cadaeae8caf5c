/* libsndfile decodes MP3 through libmpg123, which prints its notes and warnings to stderr
   ("Note: Illegal Audio-MPEG-Header …", "Warning: Xing stream size off by more than 1% …")
   for ordinary files with a damaged frame or data after the last one, unless the handle has
   the MPG123_QUIET flag. libsndfile offers no way to set it, so the one function that makes
   handles is interposed here: the program's own mpg123_new wraps libmpg123's and sets the flag
   on every handle it returns. The command exports it (a linker flag on the executable in Package.swift: libsndfile
   is opened at run time, so the linker cannot see that it refers to it), and a library's
   references are bound to the program's symbols before its own dependencies'. Libraries never
   print; decoding errors still reach voicejournal through libsndfile's return values. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

/* From mpg123.h (libmpg123 1.x; these values are its stable ABI): enum mpg123_parms's
   MPG123_ADD_FLAGS and the MPG123_QUIET flag bit. */
enum { cffmpeg_mpg123_add_flags = 2 };
enum { cffmpeg_mpg123_quiet = 0x20 };

typedef struct mpg123_handle_struct mpg123_handle;
typedef mpg123_handle *(*new_function)(const char *, int *);
typedef int (*param_function)(mpg123_handle *, int, long, double);

static new_function real_new;
static param_function real_param;
static pthread_once_t bound = PTHREAD_ONCE_INIT;

static void bind(void) {
    real_new = (new_function)dlsym(RTLD_NEXT, "mpg123_new");
    real_param = (param_function)dlsym(RTLD_NEXT, "mpg123_param2");
    if (real_new) return;
    /* libsndfile opened with RTLD_LOCAL keeps libmpg123 out of the global scope RTLD_NEXT
       searches: take it from the copy libsndfile loaded (the soname of libmpg123 1.x). */
    void *library = dlopen("libmpg123.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (!library) return;
    real_new = (new_function)dlsym(library, "mpg123_new");
    real_param = (param_function)dlsym(library, "mpg123_param2");
}

mpg123_handle *mpg123_new(const char *decoder, int *error);
mpg123_handle *mpg123_new(const char *decoder, int *error) {
    pthread_once(&bound, bind);
    if (!real_new) {
        if (error) *error = -1; /* MPG123_ERR: no libmpg123 behind this one */
        return NULL;
    }
    mpg123_handle *handle = real_new(decoder, error);
    if (handle && real_param) real_param(handle, cffmpeg_mpg123_add_flags, cffmpeg_mpg123_quiet, 0);
    return handle;
}
