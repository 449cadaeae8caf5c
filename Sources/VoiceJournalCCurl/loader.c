/* Loads libcurl on first use; see ccurl.h for why. */
#include "ccurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#define FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_perform) \
    X(curl_easy_strerror) X(curl_easy_setopt) X(curl_easy_getinfo) X(curl_version) X(curl_version_info) \
    X(curl_mime_init) X(curl_mime_free) X(curl_mime_addpart) X(curl_mime_name) X(curl_mime_filename) \
    X(curl_mime_type) X(curl_mime_filedata) X(curl_mime_data) X(curl_slist_append) X(curl_slist_free_all)

#define POINTER(name) static __typeof__(&name) bound_##name;
FUNCTIONS(POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "cannot load libcurl.so.4");
        return;
    }
#define BIND(name) \
    bound_##name = (__typeof__(&name))dlsym(library, #name); \
    if (!bound_##name) { snprintf(load_error, sizeof load_error, "%s is missing from libcurl.so.4", #name); return; }
    FUNCTIONS(BIND)
    loaded = true;
}

bool ccurl_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *ccurl_load_error(void) {
    return ccurl_load() ? NULL : load_error;
}

static void *load_in_background(void *unused) {
    (void)unused;
    ccurl_load();
    return NULL;
}

static pthread_once_t preload_once = PTHREAD_ONCE_INIT;

static void start_preload(void) {
    pthread_t thread;
    if (pthread_create(&thread, NULL, load_in_background, NULL) == 0) pthread_detach(thread);
}

void ccurl_preload(void) {
    pthread_once(&preload_once, start_preload);
}

/* Each wrapper loads the library if needed; without it, it fails as libcurl itself does
   when it cannot start (CURLE_FAILED_INIT, NULL). */
#define LOADED_OR(failure) if (!ccurl_load()) return failure

CURLcode ccurl_global_init(long flags) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_global_init(flags); }
CURL *ccurl_easy_init(void) { LOADED_OR(NULL); return bound_curl_easy_init(); }
void ccurl_easy_cleanup(CURL *handle) { if (ccurl_load()) bound_curl_easy_cleanup(handle); }
void ccurl_easy_reset(CURL *handle) { if (ccurl_load()) bound_curl_easy_reset(handle); }
CURLcode ccurl_easy_perform(CURL *handle) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_perform(handle); }
const char *ccurl_easy_strerror(CURLcode code) { LOADED_OR("the library could not be loaded"); return bound_curl_easy_strerror(code); }
char *ccurl_version(void) { LOADED_OR(NULL); return bound_curl_version(); }
curl_version_info_data *ccurl_version_info(void) { LOADED_OR(NULL); return bound_curl_version_info(CURLVERSION_NOW); }

curl_mime *ccurl_mime_init(CURL *handle) { LOADED_OR(NULL); return bound_curl_mime_init(handle); }
void ccurl_mime_free(curl_mime *mime) { if (ccurl_load()) bound_curl_mime_free(mime); }
curl_mimepart *ccurl_mime_addpart(curl_mime *mime) { LOADED_OR(NULL); return bound_curl_mime_addpart(mime); }
CURLcode ccurl_mime_name(curl_mimepart *part, const char *name) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_mime_name(part, name); }
CURLcode ccurl_mime_filename(curl_mimepart *part, const char *filename) {
    LOADED_OR(CURLE_FAILED_INIT);
    return bound_curl_mime_filename(part, filename);
}
CURLcode ccurl_mime_type(curl_mimepart *part, const char *type) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_mime_type(part, type); }
CURLcode ccurl_mime_filedata(curl_mimepart *part, const char *path) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_mime_filedata(part, path); }
CURLcode ccurl_mime_data_string(curl_mimepart *part, const char *data) {
    LOADED_OR(CURLE_FAILED_INIT);
    return bound_curl_mime_data(part, data, CURL_ZERO_TERMINATED);
}

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string) {
    LOADED_OR(NULL);
    return bound_curl_slist_append(list, string);
}
void ccurl_slist_free_all(struct curl_slist *list) { if (ccurl_load()) bound_curl_slist_free_all(list); }

CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, o, v); }
CURLcode ccurl_setopt_mime(CURL *h, curl_mime *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_setopt(h, CURLOPT_MIMEPOST, v); }
CURLcode ccurl_setopt_data_callback(CURL *h, CURLoption o, ccurl_data_callback cb) {
    LOADED_OR(CURLE_FAILED_INIT);
    return bound_curl_easy_setopt(h, o, cb);
}
CURLcode ccurl_setopt_progress_callback(CURL *h, ccurl_progress_callback cb) {
    LOADED_OR(CURLE_FAILED_INIT);
    return bound_curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, cb);
}

CURLcode ccurl_setopt_debug_callback(CURL *h, ccurl_debug_callback cb) {
    LOADED_OR(CURLE_FAILED_INIT);
    return bound_curl_easy_setopt(h, CURLOPT_DEBUGFUNCTION, cb);
}

CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_getinfo(h, i, v); }
CURLcode ccurl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_getinfo(h, i, v); }
CURLcode ccurl_getinfo_double(CURL *h, CURLINFO i, double *v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_getinfo(h, i, v); }
CURLcode ccurl_getinfo_string(CURL *h, CURLINFO i, char **v) { LOADED_OR(CURLE_FAILED_INIT); return bound_curl_easy_getinfo(h, i, v); }
