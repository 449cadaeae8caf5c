#ifndef VOICEJOURNAL_CSAMPLERATE_SHIM_H
#define VOICEJOURNAL_CSAMPLERATE_SHIM_H
/* libsamplerate (Secret Rabbit Code): band-limited sample-rate conversion. Not linked: the
   Audio module opens it when a file must be converted (LibSampleRate) and calls it through
   pointers of these types, each the type of the function it names. */
#include <samplerate.h>

typedef __typeof__(&src_new) csamplerate_new;
typedef __typeof__(&src_delete) csamplerate_delete;
typedef __typeof__(&src_process) csamplerate_process;
typedef __typeof__(&src_strerror) csamplerate_strerror;
typedef __typeof__(&src_is_valid_ratio) csamplerate_is_valid_ratio;
typedef __typeof__(&src_get_version) csamplerate_get_version;

/* The careful converter: 90% of the output band kept, about 121 dB of stopband. */
static inline int csamplerate_medium_quality(void) { return SRC_SINC_MEDIUM_QUALITY; }
/* The cheapest band-limited converter: 80% of the output band kept, about 97 dB of stopband. */
static inline int csamplerate_fastest(void) { return SRC_SINC_FASTEST; }

#endif
