/* malloc and friends on every rank at once: blocks keep their contents
 * while other ranks allocate, realloc moves data, aligned_alloc and
 * posix_memalign honour the alignment, calloc zeroes, bad requests fail
 * with the right error. Each rank holds some 400 KiB at once: at full
 * occupancy that is past a GPU's memory (270,336 ranks: 111 GB), and the
 * checks report the calls that fail rather than touch what they did not
 * return. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

#define NB 48

static unsigned char pattern(int r, int i, size_t k) { return (unsigned char)(r * 31 + i * 7 + k); }

int main(int argc, char **argv)
{
    mt_init(&argc, &argv);
    unsigned char *b[NB];
    size_t sz[NB];
    int i;
    size_t k;
    /* sizes from 1 byte to 100 KiB, filled with a rank-specific pattern */
    for (i = 0; i < NB; i++) {
        sz[i] = 1 + (size_t)((rank * 131 + i * 977) % (i < 40 ? 600 : 100000));
        b[i] = malloc(sz[i]);
        CHECK(b[i] != NULL, "malloc(%zu) failed", sz[i]);
        if (b[i])
            for (k = 0; k < sz[i]; k++) b[i][k] = pattern(rank, i, k);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    /* free every other block, allocate again, then check the survivors */
    for (i = 0; i < NB; i += 2) free(b[i]);
    for (i = 0; i < NB; i += 2) {
        b[i] = malloc(sz[i]);
        if (b[i])
            for (k = 0; k < sz[i]; k++) b[i][k] = pattern(rank, i, k);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    for (i = 0; i < NB; i++) {
        int bad = 0;
        if (b[i])
            for (k = 0; k < sz[i]; k++) bad += b[i][k] != pattern(rank, i, k);
        CHECK(b[i] && bad == 0, "block %d (%zu bytes): %d bytes changed", i, sz[i], bad);
    }
    /* realloc keeps the prefix while growing and shrinking */
    for (i = 0; i < NB; i++) {
        size_t n = sz[i] * 3 + 100;
        unsigned char *p = realloc(b[i], n);
        CHECK(p != NULL, "realloc to %zu failed", n);
        if (!p) continue;
        int bad = 0;
        for (k = 0; k < sz[i]; k++) bad += p[k] != pattern(rank, i, k);
        CHECK(bad == 0, "realloc(%zu -> %zu) lost %d bytes", sz[i], n, bad);
        p = realloc(p, sz[i] / 2 + 1);
        bad = 0;
        for (k = 0; p && k < sz[i] / 2 + 1 && k < sz[i]; k++) bad += p[k] != pattern(rank, i, k);
        CHECK(p && bad == 0, "shrinking realloc lost %d bytes", bad);
        free(p);
    }
    /* calloc zeroes (also a block freed dirty) */
    for (i = 0; i < 8; i++) {
        unsigned char *d = malloc(256);
        CHECK(d != NULL, "malloc(256) failed");
        if (d) memset(d, 0xee, 256);
        free(d);
        unsigned *z = calloc(64, sizeof(unsigned));
        int nz = 0;
        for (k = 0; z && k < 64; k++) nz += z[k] != 0;
        CHECK(z && nz == 0, "calloc: %d words not zero", nz);
        free(z);
    }
    /* alignment */
    size_t al;
    for (al = 8; al <= 4096; al *= 2) {
        void *p = aligned_alloc(al, al * 3);
        CHECK(p && ((uintptr_t)p % al) == 0, "aligned_alloc(%zu): %p", al, p);
        if (p) memset(p, 1, al * 3);
        void *q = NULL;
        int rc = posix_memalign(&q, al, 100);
        CHECK(rc == 0 && q && ((uintptr_t)q % al) == 0, "posix_memalign(%zu): %d %p", al, rc, q);
        if (q) {
            memset(q, 2, 100);
            q = realloc(q, 5000); /* an aligned block can be reallocated */
            CHECK(q && ((unsigned char *)q)[99] == 2, "realloc of an aligned block lost its data");
        }
        free(p);
        free(q);
    }
    void *q = NULL;
    CHECK(posix_memalign(&q, 24, 100) == EINVAL, "posix_memalign with alignment 24 should be EINVAL");
    CHECK(posix_memalign(&q, 4, 100) == EINVAL, "posix_memalign with alignment 4 should be EINVAL");
    free(malloc(0)); /* malloc(0) is NULL or a block free takes */
    CHECK(realloc(NULL, 10) != NULL, "realloc(NULL, 10) failed");
    if (rank == 0) {
        errno = 0;
        void *huge = malloc((size_t)1 << 62);
        CHECK(huge == NULL && errno == ENOMEM, "malloc(2^62): %p errno %d", huge, errno);
        errno = 0;
        void *ov = calloc((size_t)1 << 40, (size_t)1 << 40);
        CHECK(ov == NULL && errno == ENOMEM, "calloc overflow: %p errno %d", ov, errno);
    }
    return mt_finish();
}
