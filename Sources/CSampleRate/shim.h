#ifndef VOICEJOURNAL_CSAMPLERATE_SHIM_H
#define VOICEJOURNAL_CSAMPLERATE_SHIM_H
/* libsamplerate (Secret Rabbit Code): band-limited sample-rate conversion. */
#include <samplerate.h>

/* The careful converter: 90% of the output band kept, about 121 dB of stopband. */
static inline int csamplerate_medium_quality(void) { return SRC_SINC_MEDIUM_QUALITY; }
/* The cheapest band-limited converter: 80% of the output band kept, about 97 dB of stopband. */
static inline int csamplerate_fastest(void) { return SRC_SINC_FASTEST; }

#endif
