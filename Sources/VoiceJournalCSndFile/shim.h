#ifndef VOICEJOURNAL_CSNDFILE_SHIM_H
#define VOICEJOURNAL_CSNDFILE_SHIM_H
/* libsndfile's types, constants and function types. The library itself is not linked: the
   Audio module opens it when first needed (LibSndFile) and calls it through pointers of these
   types, each the type of the function it names, so a call cannot disagree with the header. */
#include <sndfile.h>

typedef __typeof__(&sf_open) csndfile_open;
typedef __typeof__(&sf_open_fd) csndfile_open_fd;
typedef __typeof__(&sf_open_virtual) csndfile_open_virtual;
typedef __typeof__(&sf_close) csndfile_close;
typedef __typeof__(&sf_command) csndfile_command;
typedef __typeof__(&sf_error) csndfile_error;
typedef __typeof__(&sf_error_number) csndfile_error_number;
typedef __typeof__(&sf_strerror) csndfile_strerror;
typedef __typeof__(&sf_readf_short) csndfile_readf_short;
typedef __typeof__(&sf_readf_float) csndfile_readf_float;
typedef __typeof__(&sf_writef_short) csndfile_writef_short;
typedef __typeof__(&sf_writef_float) csndfile_writef_float;
typedef __typeof__(&sf_seek) csndfile_seek;
typedef __typeof__(&sf_set_string) csndfile_set_string;
typedef __typeof__(&sf_version_string) csndfile_version_string;

#endif
