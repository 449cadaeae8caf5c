/* Loads libcrypto on first use; see ccrypto.h for why. */
#include "ccrypto.h"

#include <dlfcn.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>

#define FUNCTIONS(X) \
    X(EVP_MD_CTX_new) X(EVP_MD_CTX_free) X(EVP_sha256) X(EVP_DigestInit_ex) X(EVP_DigestUpdate) \
    X(EVP_DigestFinal_ex)

#define POINTER(name) static __typeof__(&name) bound_##name;
FUNCTIONS(POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static bool loaded;
static char load_error[512];

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(load_error, sizeof load_error, "%s", why ? why : "cannot load libcrypto.so.3");
        return;
    }
#define BIND(name) \
    bound_##name = (__typeof__(&name))dlsym(library, #name); \
    if (!bound_##name) { snprintf(load_error, sizeof load_error, "%s is missing from libcrypto.so.3", #name); return; }
    FUNCTIONS(BIND)
    loaded = true;
}

bool ccrypto_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *ccrypto_load_error(void) {
    return ccrypto_load() ? NULL : load_error;
}

ccrypto_sha256 *ccrypto_sha256_begin(void) {
    if (!ccrypto_load()) return NULL;
    EVP_MD_CTX *context = bound_EVP_MD_CTX_new();
    if (!context) return NULL;
    if (bound_EVP_DigestInit_ex(context, bound_EVP_sha256(), NULL) != 1) {
        bound_EVP_MD_CTX_free(context);
        return NULL;
    }
    return (ccrypto_sha256 *)context;
}

int ccrypto_sha256_update(ccrypto_sha256 *context, const void *bytes, size_t count) {
    return bound_EVP_DigestUpdate((EVP_MD_CTX *)context, bytes, count);
}

int ccrypto_sha256_finish(ccrypto_sha256 *context, unsigned char digest[32]) {
    unsigned char full[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (bound_EVP_DigestFinal_ex((EVP_MD_CTX *)context, full, &length) != 1 || length != 32) return 0;
    for (unsigned int i = 0; i < 32; i++) digest[i] = full[i];
    return 1;
}

void ccrypto_sha256_free(ccrypto_sha256 *context) {
    if (context) bound_EVP_MD_CTX_free((EVP_MD_CTX *)context);
}
