#ifndef VOICEJOURNAL_CCRYPTO_SHIM_H
#define VOICEJOURNAL_CCRYPTO_SHIM_H
/* OpenSSL's libcrypto, for SHA-256 only: it uses the CPU's SHA instructions where present. */
#include <openssl/evp.h>
#endif
