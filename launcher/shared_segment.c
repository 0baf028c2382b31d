/* See shared_segment.h. A memfd, not a file in /dev/shm (containers often
 * cap that at 64 MiB, and the heap lives here): the other processes open
 * it through process 0's /proc/<pid>/fd, so all of them must run on one
 * host as one user, which the threads backend needs anyway. */
#define _GNU_SOURCE
#include "shared_segment.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "host_mpi.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

static char *base;
static size_t size, used;

/* What process 0 tells the others. */
typedef struct offer {
    long long pid, fd, addr, bad; /* bad: process 0 could not make it (errno) */
} offer;

enum { OK = 0, ADDRESS_TAKEN = 1, CANNOT_OPEN = 2 };

/* Maps p0's segment at its address here: OK, ADDRESS_TAKEN or CANNOT_OPEN. */
static int attach(const offer *a, size_t bytes)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%lld/fd/%lld", a->pid, a->fd);
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) {
        fprintf(stderr, "gpumpi: cannot open the job's shared memory (%s): %s; every launcher process of a job on "
                "the threads backend must run on one host as one user\n", path, strerror(errno));
        return CANNOT_OPEN;
    }
    void *want = (void *)(uintptr_t)a->addr;
    void *p = mmap(want, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, fd, 0);
    close(fd);
    if (p == want) return OK;
    if (p != MAP_FAILED) munmap(p, bytes); /* a kernel that took the address as a hint */
    return ADDRESS_TAKEN;
}

char *gp_segment_open(size_t bytes, int proc)
{
    bytes = (bytes + 0xfffff) & ~(size_t)0xfffff;
    int fd = -1;
    offer a = {0, 0, 0, 0};
    if (proc == 0) {
        fd = memfd_create("gpumpi-world", MFD_CLOEXEC);
        if (fd < 0 || ftruncate(fd, (off_t)bytes) != 0) a.bad = errno ? errno : EINVAL;
    }
    /* Process 0 keeps a mapping the others could not take, so its next
     * one lands elsewhere. */
    for (int attempt = 0; attempt < 8; attempt++) {
        if (proc == 0 && !a.bad) {
            void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
            if (p == MAP_FAILED) a.bad = errno;
            a = (offer){getpid(), fd, (long long)(uintptr_t)p, a.bad};
        }
        gp_host_mpi_bcast(&a, sizeof a, 0);
        if (a.bad) {
            if (proc == 0)
                fprintf(stderr, "gpumpi: cannot make the job's %zu-byte shared memory segment: %s; lower --heap\n",
                        bytes, strerror((int)a.bad));
            exit(1);
        }
        int mine = proc == 0 ? OK : attach(&a, bytes);
        long long verdict[1] = {mine};
        gp_host_mpi_allreduce_max(verdict, 1);
        if (verdict[0] == OK) {
            base = (char *)(uintptr_t)a.addr;
            size = bytes;
            return base;
        }
        if (proc != 0 && mine == OK) munmap((void *)(uintptr_t)a.addr, bytes);
        if (verdict[0] == CANNOT_OPEN) exit(1);
        a.addr = 0;
    }
    if (proc == 0)
        fprintf(stderr, "gpumpi: the launcher processes found no address free in all of them for the job's %zu-byte "
                "shared memory segment; lower --heap\n", bytes);
    exit(1);
}

void *gp_segment_alloc(size_t bytes, const char *what)
{
    size_t at = (used + 63) & ~(size_t)63;
    if (!base || at + bytes > size || at + bytes < at) {
        fprintf(stderr, "gpumpi: the job's shared memory segment has no room for %s (%zu bytes)\n", what, bytes);
        exit(1);
    }
    used = at + bytes;
    return base + at; /* a fresh memfd reads as zeros */
}

char *gp_segment_end(void) { return base + size; }
