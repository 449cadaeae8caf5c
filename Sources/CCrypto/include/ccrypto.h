#ifndef VOICEJOURNAL_CCRYPTO_H
#define VOICEJOURNAL_CCRYPTO_H
/* OpenSSL's libcrypto, for SHA-256 only, loaded on first use rather than linked.

   libcrypto uses the CPU's SHA instructions, so a batch of thousands of files is hashed at
   disk speed; but linked, its 3,000-odd symbol bindings were resolved at every start of the
   command (about 0.7 ms), `play`, `search` and `--version` included, while only the commands
   that store a file hash one. */
#include <stdbool.h>
#include <stddef.h>

/* One SHA-256 computation in progress (OpenSSL's EVP_MD_CTX). */
typedef struct ccrypto_sha256 ccrypto_sha256;

/* Loads libcrypto.so.3 (OpenSSL 3, the soname these functions were written for) and binds
   the functions below; true when it is usable. Safe from any thread, any number of times:
   the work is done once. */
bool ccrypto_load(void);
/* Why ccrypto_load failed (dlerror's text), or NULL when it did not. */
const char *ccrypto_load_error(void);

/* A new SHA-256 computation (EVP_MD_CTX_new + EVP_DigestInit_ex with EVP_sha256), or NULL
   when libcrypto cannot be loaded or set it up. */
ccrypto_sha256 *ccrypto_sha256_begin(void);
/* EVP_DigestUpdate: 1 on success. */
int ccrypto_sha256_update(ccrypto_sha256 *context, const void *bytes, size_t count);
/* EVP_DigestFinal_ex into `digest` (32 bytes): 1 on success. */
int ccrypto_sha256_finish(ccrypto_sha256 *context, unsigned char digest[32]);
/* EVP_MD_CTX_free. */
void ccrypto_sha256_free(ccrypto_sha256 *context);

#endif
