#ifndef VOICEJOURNAL_CSNDFILE_SHIM_H
#define VOICEJOURNAL_CSNDFILE_SHIM_H
#include <sndfile.h>

/* libsndfile's version string, e.g. "libsndfile-1.2.0" (sf_command with a buffer). */
static inline const char *csndfile_version(void) { return sf_version_string(); }

#endif
