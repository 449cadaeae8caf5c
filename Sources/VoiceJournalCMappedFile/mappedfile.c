// Guarded read-only file mappings. A mapped file that another program truncates turns reads
// of the vanished pages into SIGBUS, which would kill the process: the handler below, for an
// address inside a guarded mapping, maps anonymous zero pages over the rest of it (the read
// is retried and sees silence) and flags the slot. Any other SIGBUS gets the previous action.
#define _GNU_SOURCE
#include "cmappedfile.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

// One per file mapped at once in the process. A command plays one file; the test suite plays
// dozens at once. When all are taken a file is decoded instead of mapped (slower, never wrong).
#define SLOTS 256

struct slot {
    _Atomic(uintptr_t) start;   // 0 when free
    _Atomic(size_t) length;
    _Atomic(int) shrank;
    void *base;                 // the page-aligned address mmap returned
    size_t mapped;              // its length
};

static struct slot slots[SLOTS];
static pthread_mutex_t slots_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static struct sigaction previous;

static void on_sigbus(int number, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int index = 0; index < SLOTS; index++) {
        uintptr_t start = atomic_load(&slots[index].start);
        size_t length = atomic_load(&slots[index].length);
        if (start == 0 || address < start || address >= start + length) continue;
        uintptr_t page = address & ~((uintptr_t)sysconf(_SC_PAGESIZE) - 1);
        // mmap is a plain system call on Linux: safe here in practice.
        mmap((void *)page, start + length - page, PROT_READ, MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        atomic_store(&slots[index].shrank, 1);
        return;
    }
    // Not ours: the action that was there before (by default, the process ends with SIGBUS).
    sigaction(SIGBUS, &previous, NULL);
    (void)number;
    (void)context;
}

static void install(void) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    sigaction(SIGBUS, &action, &previous);
}

const void *cmapped_map(int fd, long long offset, size_t length, int *slot) {
    if (offset < 0 || length == 0) {
        errno = EINVAL;
        return NULL;
    }
    pthread_once(&install_once, install);
    long long pagesize = sysconf(_SC_PAGESIZE);
    long long aligned = offset - offset % pagesize;
    size_t mapped = length + (size_t)(offset - aligned);
    void *base = mmap(NULL, mapped, PROT_READ, MAP_PRIVATE, fd, aligned);
    if (base == MAP_FAILED) return NULL;
    pthread_mutex_lock(&slots_lock);
    for (int index = 0; index < SLOTS; index++) {
        if (atomic_load(&slots[index].start) != 0) continue;
        slots[index].base = base;
        slots[index].mapped = mapped;
        atomic_store(&slots[index].shrank, 0);
        atomic_store(&slots[index].length, mapped);
        atomic_store(&slots[index].start, (uintptr_t)base);
        pthread_mutex_unlock(&slots_lock);
        madvise(base, mapped, MADV_SEQUENTIAL);
        *slot = index;
        return (const char *)base + (offset - aligned);
    }
    pthread_mutex_unlock(&slots_lock);
    munmap(base, mapped);
    errno = EMFILE;
    return NULL;
}

int cmapped_shrank(int slot) {
    if (slot < 0 || slot >= SLOTS) return 0;
    return atomic_load(&slots[slot].shrank);
}

void cmapped_unmap(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    pthread_mutex_lock(&slots_lock);
    void *base = slots[slot].base;
    size_t mapped = slots[slot].mapped;
    atomic_store(&slots[slot].start, 0);
    atomic_store(&slots[slot].length, 0);
    slots[slot].base = NULL;
    pthread_mutex_unlock(&slots_lock);
    if (base) munmap(base, mapped);
}
