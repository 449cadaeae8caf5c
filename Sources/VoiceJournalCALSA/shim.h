#ifndef VOICEJOURNAL_CALSA_SHIM_H
#define VOICEJOURNAL_CALSA_SHIM_H
#include <alsa/asoundlib.h>

/* The library's version string, e.g. "1.2.8" (snd_asoundlib_version is a plain function,
   kept here so every ALSA symbol the Swift side uses comes through this header). */
static inline const char *calsa_version(void) { return snd_asoundlib_version(); }

/* Silences ALSA's default error printer (it writes to stderr behind our back); errors are
   reported through return codes and turned into ALSAError on the Swift side. */
static void calsa_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void calsa_silence_error_output(void) { snd_lib_error_set_handler(calsa_quiet_handler); }

#endif
