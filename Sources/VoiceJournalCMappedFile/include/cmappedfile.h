#ifndef CMAPPEDFILE_H
#define CMAPPEDFILE_H

#include <stddef.h>

/// Maps `length` bytes of the open file `fd` from byte `offset`, read-only, and guards the
/// mapping: a read past the file's end (the file was cut short while mapped) reads zeros
/// instead of ending the process with SIGBUS, and `cmapped_shrank` reports it. Returns the
/// address of byte `offset`, or NULL (errno set; EMFILE when every guard slot is taken).
/// `*slot` receives the handle for the other calls.
const void *cmapped_map(int fd, long long offset, size_t length, int *slot);

/// 1 once a read past the end of the slot's file was caught, else 0.
int cmapped_shrank(int slot);

/// Unmaps the slot's mapping and frees the slot.
void cmapped_unmap(int slot);

#endif
