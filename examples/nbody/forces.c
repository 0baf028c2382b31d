#include <math.h>
#include <mpi.h>
#include "forces.h"

#define EPS2 1e-4

/* Adds the pull of bodies other[0..n) (global indices from first) on the
 * local bodies; returns their share of the potential energy. */
static double accumulate(struct bodies *b, const struct body_pos *other, int n, long long first)
{
    double pot = 0;
    int s, j;
    for (s = 0; s < b->nlocal; s++) {
        double xi = b->pos[s].x, yi = b->pos[s].y, zi = b->pos[s].z, ax = 0, ay = 0, az = 0, phi = 0;
        long long gi = b->first + s;
        for (j = 0; j < n; j++) {
            double dx = other[j].x - xi, dy = other[j].y - yi, dz = other[j].z - zi;
            double r2 = dx * dx + dy * dy + dz * dz + EPS2, rinv = 1.0 / sqrt(r2);
            double f = other[j].m * rinv * rinv * rinv;
            ax += f * dx;
            ay += f * dy;
            az += f * dz;
            if (first + j != gi)
                phi -= other[j].m * rinv;
        }
        b->ax[s] += ax;
        b->ay[s] += ay;
        b->az[s] += az;
        pot += 0.5 * b->pos[s].m * phi; /* each pair is seen from both ends */
    }
    return pot;
}

long long forces_work_size(const struct bodies *b, int mode)
{
    int p;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    return mode == MODE_ALLGATHER ? (long long)b->nlocal * p : b->nlocal;
}

void forces_compute(struct bodies *b, int mode, struct body_pos *work, double *potential)
{
    int rank, p, s, step;
    double pot = 0, total;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    for (s = 0; s < b->nlocal; s++)
        b->ax[s] = b->ay[s] = b->az[s] = 0;
    if (mode == MODE_ALLGATHER) {
        MPI_Allgather(b->pos, 4 * b->nlocal, MPI_DOUBLE, work, 4 * b->nlocal, MPI_DOUBLE, MPI_COMM_WORLD);
        pot = accumulate(b, work, (int)b->ntotal, 0);
    } else {
        int from = rank; /* whose block WORK holds */
        for (s = 0; s < b->nlocal; s++)
            work[s] = b->pos[s];
        for (step = 0; step < p; step++) {
            pot += accumulate(b, work, b->nlocal, (long long)from * b->nlocal);
            if (step == p - 1)
                break;
            MPI_Sendrecv_replace(work, 4 * b->nlocal, MPI_DOUBLE, (rank + 1) % p, 0, (rank + p - 1) % p, 0,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            from = (from + p - 1) % p;
        }
    }
    MPI_Allreduce(&pot, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    *potential = total;
}
