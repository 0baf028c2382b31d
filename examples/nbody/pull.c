#include <math.h>
#include "pull.h"

#define EPS2 1e-4

int real_slots(long long first, int size, long long ntotal)
{
    return first >= ntotal ? 0 : ntotal - first < size ? (int)(ntotal - first) : size;
}

double pull(const struct body_pos *tgt, int nt, long long tfirst, double *ax, double *ay, double *az,
            const struct blocks *src, long long ntotal)
{
    double pot = 0;
    int s, k, j;
    nt = real_slots(tfirst, nt, ntotal);
    for (s = 0; s < nt; s++) {
        double xi = tgt[s].x, yi = tgt[s].y, zi = tgt[s].z, sx = 0, sy = 0, sz = 0, phi = 0;
        long long gi = tfirst + s;
        /* one sum over all the blocks: one store per target, however
         * finely the sources are split (2d at one body per rank: 1 x R) */
        for (k = 0; k < src->nblocks; k++) {
            const struct body_pos *other = src->pos + (long long)k * src->size;
            long long first = src->first[k];
            int n = real_slots(first, src->size, ntotal);
            /* the target's own slot in this block, if there: a 32-bit
             * compare in the loop (registers are few on the GPU) */
            int self = gi >= first && gi < first + n ? (int)(gi - first) : -1;
            for (j = 0; j < n; j++) {
                double dx = other[j].x - xi, dy = other[j].y - yi, dz = other[j].z - zi;
                double r2 = dx * dx + dy * dy + dz * dz + EPS2, rinv = 1.0 / sqrt(r2);
                double f = other[j].m * rinv * rinv * rinv;
                sx += f * dx;
                sy += f * dy;
                sz += f * dz;
                if (j != self)
                    phi -= other[j].m * rinv;
            }
        }
        ax[s] += sx;
        ay[s] += sy;
        az[s] += sz;
        pot += 0.5 * tgt[s].m * phi; /* each pair is seen from both ends */
    }
    return pot;
}
