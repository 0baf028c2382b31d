#include <stdlib.h>
#include <string.h>
#include <mpi.h>
#include "forces.h"
#include "pull.h"

static const char *const mode_names[] = {"allgather", "ring", "2d"};

int forces_mode(const char *name)
{
    int m;
    for (m = 0; m < 3; m++)
        if (!strcmp(name, mode_names[m]))
            return m;
    return -1;
}

const char *forces_mode_name(int mode)
{
    return mode_names[mode];
}

long long forces_init(struct forces *f, const struct bodies *b, int mode)
{
    int p;
    long long n;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    memset(f, 0, sizeof *f);
    f->mode = mode;
    if (mode == MODE_2D)
        return forces_2d_init(f, b);
    n = mode == MODE_ALLGATHER ? (long long)b->nlocal * p : b->nlocal;
    f->work = malloc((n + 1) * sizeof(struct body_pos));
    return f->work ? 0 : (n + 1) * (long long)sizeof(struct body_pos);
}

void forces_free(struct forces *f)
{
    if (f->mode == MODE_2D)
        forces_2d_free(f);
    free(f->work);
}

/* Every position on every rank: one block of all N bodies. */
static double pull_allgather(struct forces *f, struct bodies *b)
{
    long long first = 0;
    struct blocks all = {f->work, 1, (int)b->ntotal, &first};
    MPI_Allgather(b->pos, 4 * b->nlocal, MPI_DOUBLE, f->work, 4 * b->nlocal, MPI_DOUBLE, MPI_COMM_WORLD);
    return pull(b->pos, b->nlocal, b->first, b->ax, b->ay, b->az, &all, b->ntotal);
}

/* The blocks travel one rank to the right per step; after p - 1 steps every
 * block has passed every rank. */
static double pull_ring(struct forces *f, struct bodies *b)
{
    int rank, p, step, s, owner;
    long long first; /* the global index of slot 0 of the block WORK holds */
    double pot = 0;
    struct blocks one = {f->work, 1, b->nlocal, &first};
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (s = 0; s < b->nlocal; s++)
        f->work[s] = b->pos[s];
    owner = rank;
    first = b->first;
    for (step = 0; step < p; step++) {
        pot += pull(b->pos, b->nlocal, b->first, b->ax, b->ay, b->az, &one, b->ntotal);
        if (step == p - 1)
            break;
        MPI_Sendrecv_replace(f->work, 4 * b->nlocal, MPI_DOUBLE, (rank + 1) % p, 0, (rank + p - 1) % p, 0,
                             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        owner = (owner + p - 1) % p;
        first = (long long)owner * b->nlocal;
    }
    return pot;
}

void forces_compute(struct forces *f, struct bodies *b, double *potential)
{
    int s;
    double pot, total;
    for (s = 0; s < b->nlocal; s++)
        b->ax[s] = b->ay[s] = b->az[s] = 0;
    pot = f->mode == MODE_ALLGATHER ? pull_allgather(f, b) : f->mode == MODE_RING ? pull_ring(f, b)
                                                                                  : forces_2d_pull(f, b);
    MPI_Allreduce(&pot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    *potential = total;
}
