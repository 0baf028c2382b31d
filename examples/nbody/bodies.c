#include <stdlib.h>
#include <mpi.h>
#include "bodies.h"

static unsigned long long mix64(unsigned long long x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The k-th uniform number in [0, 1) of body i. */
static double uniform(unsigned long long seed, long long i, int k)
{
    return (mix64(seed * 0x100000001b3ULL + (unsigned long long)i * 8 + k) >> 11) * (1.0 / 9007199254740992.0);
}

void bodies_init(struct bodies *b, long long ntotal, unsigned long long seed)
{
    int rank, p, s;
    double mom[4] = {0, 0, 0, 0}, tot[4];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    b->ntotal = ntotal;
    b->nlocal = (int)((ntotal + p - 1) / p);
    b->first = (long long)rank * b->nlocal;
    b->pos = malloc((b->nlocal + 1) * sizeof(struct body_pos));
    b->vx = malloc((b->nlocal + 1) * sizeof(double));
    b->vy = malloc((b->nlocal + 1) * sizeof(double));
    b->vz = malloc((b->nlocal + 1) * sizeof(double));
    b->ax = calloc(b->nlocal + 1, sizeof(double));
    b->ay = calloc(b->nlocal + 1, sizeof(double));
    b->az = calloc(b->nlocal + 1, sizeof(double));
    for (s = 0; s < b->nlocal; s++) {
        long long i = b->first + s;
        int real = i < ntotal;
        b->pos[s].x = real ? uniform(seed, i, 0) : 0;
        b->pos[s].y = real ? uniform(seed, i, 1) : 0;
        b->pos[s].z = real ? uniform(seed, i, 2) : 0;
        b->pos[s].m = real ? (0.5 + uniform(seed, i, 3)) / ntotal : 0;
        b->vx[s] = real ? 0.1 * (uniform(seed, i, 4) - 0.5) : 0;
        b->vy[s] = real ? 0.1 * (uniform(seed, i, 5) - 0.5) : 0;
        b->vz[s] = real ? 0.1 * (uniform(seed, i, 6) - 0.5) : 0;
        mom[0] += b->pos[s].m * b->vx[s];
        mom[1] += b->pos[s].m * b->vy[s];
        mom[2] += b->pos[s].m * b->vz[s];
        mom[3] += b->pos[s].m;
    }
    /* a system at rest: momentum conservation is then checked against 0 */
    MPI_Allreduce(mom, tot, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (s = 0; s < b->nlocal; s++)
        if (b->pos[s].m > 0) {
            b->vx[s] -= tot[0] / tot[3];
            b->vy[s] -= tot[1] / tot[3];
            b->vz[s] -= tot[2] / tot[3];
        }
}

void bodies_free(struct bodies *b)
{
    free(b->pos);
    free(b->vx);
    free(b->vy);
    free(b->vz);
    free(b->ax);
    free(b->ay);
    free(b->az);
}
