#ifndef VOICEJOURNAL_CCURL_H
#define VOICEJOURNAL_CCURL_H
/* libcurl, loaded on first use rather than linked.

   Debian's libcurl pulls in some 30 shared libraries (GnuTLS, Kerberos, LDAP, SSH, …) whose
   loading and relocation took 5 ms of every start of the command, `search` and `--version`
   included, while only the commands that upload use it. Each libcurl function used is
   reached through a ccurl_ function of the same meaning; the header gives the types and
   constants. A command that will upload starts the loading on a thread of its own
   (ccurl_preload) while it opens the journal. */
#include <stdbool.h>
#include <stddef.h>
#include <curl/curl.h>

/* Loads libcurl.so.4 (the soname these headers are for) and binds every function below;
   true when it is usable. Safe to call from any thread, any number of times: the work is
   done once. Every function below loads it first if needed, and fails (CURLE_FAILED_INIT,
   NULL) when it cannot be loaded. */
bool ccurl_load(void);
/* Why ccurl_load failed (dlerror's text), or NULL when it did not. */
const char *ccurl_load_error(void);
/* Starts ccurl_load on a detached thread (once) and returns at once. */
void ccurl_preload(void);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
void ccurl_easy_reset(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
char *ccurl_version(void);
/* curl_version_info(CURLVERSION_NOW): the macro names an enum value Swift does not import. */
curl_version_info_data *ccurl_version_info(void);

curl_mime *ccurl_mime_init(CURL *handle);
void ccurl_mime_free(curl_mime *mime);
curl_mimepart *ccurl_mime_addpart(curl_mime *mime);
CURLcode ccurl_mime_name(curl_mimepart *part, const char *name);
CURLcode ccurl_mime_filename(curl_mimepart *part, const char *filename);
CURLcode ccurl_mime_type(curl_mimepart *part, const char *type);
CURLcode ccurl_mime_filedata(curl_mimepart *part, const char *path);
/* curl_mime_data with CURL_ZERO_TERMINATED, which does not import (size_t overflow in Swift's Int). */
CURLcode ccurl_mime_data_string(curl_mimepart *part, const char *data);

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one typed
   function per argument type. */
CURLcode ccurl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode ccurl_setopt_off(CURL *h, CURLoption o, curl_off_t v);
CURLcode ccurl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode ccurl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode ccurl_setopt_slist(CURL *h, CURLoption o, struct curl_slist *v);
CURLcode ccurl_setopt_mime(CURL *h, curl_mime *v);

typedef size_t (*ccurl_data_callback)(char *buffer, size_t size, size_t count, void *userdata);
typedef int (*ccurl_progress_callback)(void *userdata, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);
CURLcode ccurl_setopt_data_callback(CURL *h, CURLoption o, ccurl_data_callback cb);
CURLcode ccurl_setopt_progress_callback(CURL *h, ccurl_progress_callback cb);
/* CURLOPT_DEBUGFUNCTION (called only with CURLOPT_VERBOSE 1): what went over the connection,
   by kind. Mail reads the server's replies (CURLINFO_HEADER_IN) from it, never what was sent. */
typedef int (*ccurl_debug_callback)(CURL *handle, curl_infotype type, char *data, size_t size, void *userdata);
CURLcode ccurl_setopt_debug_callback(CURL *h, ccurl_debug_callback cb);

CURLcode ccurl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode ccurl_getinfo_off(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode ccurl_getinfo_double(CURL *h, CURLINFO i, double *v);
CURLcode ccurl_getinfo_string(CURL *h, CURLINFO i, char **v);

#endif
