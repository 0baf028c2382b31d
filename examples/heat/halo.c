#include <stdlib.h>
#include "halo.h"
#include "params.h"

/* The box of face f: side 0 is the low face, 1 the high. inner: the owned
 * layer next to it (sent); otherwise the ghost layer (received). */
static void face_box(const struct grid *gr, int f, int inner, int lo[3], int hi[3])
{
    int d, fd = f / 2, side = f % 2;
    for (d = 0; d < 3; d++) {
        lo[d] = gr->g[d];
        hi[d] = gr->g[d] + gr->n[d];
    }
    if (side == 0)
        lo[fd] = inner ? gr->g[fd] : 0;
    else
        lo[fd] = inner ? gr->g[fd] + gr->n[fd] - 1 : gr->n[fd] + gr->g[fd];
    hi[fd] = lo[fd] + 1;
}

static void copy_box(const struct grid *gr, double *u, const int lo[3], const int hi[3], double *buf, int pack)
{
    int i, j, k;
    long m = 0;
    for (i = lo[0]; i < hi[0]; i++)
        for (j = lo[1]; j < hi[1]; j++) {
            double *row = u + grid_idx(gr, i, j, 0);
            for (k = lo[2]; k < hi[2]; k++, m++) {
                if (pack)
                    buf[m] = row[k];
                else
                    row[k] = buf[m];
            }
        }
}

void halo_init(struct halo *h, const struct grid *gr, int mode)
{
    int f, d;
    h->mode = mode;
    for (f = 0; f < 6; f++) {
        int c = 1;
        for (d = 0; d < 3; d++)
            if (d != f / 2)
                c *= gr->n[d];
        h->count[f] = f / 2 < gr->dim ? c : 0;
        h->sendbuf[f] = malloc((h->count[f] + 1) * sizeof(double));
        h->recvbuf[f] = malloc((h->count[f] + 1) * sizeof(double));
    }
}

void halo_free(struct halo *h)
{
    int f;
    for (f = 0; f < 6; f++) {
        free(h->sendbuf[f]);
        free(h->recvbuf[f]);
    }
}

static int neighbour(const struct grid *gr, int f)
{
    return f % 2 == 0 ? gr->lo[f / 2] : gr->hi[f / 2];
}

void halo_exchange(struct halo *h, const struct grid *gr, double *u)
{
    int f, lo[3], hi[3], nreq = 0;
    MPI_Request req[12];
    for (f = 0; f < 2 * gr->dim; f++) {
        face_box(gr, f, 1, lo, hi);
        copy_box(gr, u, lo, hi, h->sendbuf[f], 1);
    }
    if (h->mode == HALO_SENDRECV) {
        /* per dimension, everyone shifts up then down: no rank waits for a
         * chain of others. The tag is the face that receives. */
        int d;
        for (d = 0; d < gr->dim; d++) {
            MPI_Sendrecv(h->sendbuf[2 * d + 1], h->count[2 * d + 1], MPI_DOUBLE, gr->hi[d], 2 * d,
                         h->recvbuf[2 * d], h->count[2 * d], MPI_DOUBLE, gr->lo[d], 2 * d,
                         gr->cart, MPI_STATUS_IGNORE);
            MPI_Sendrecv(h->sendbuf[2 * d], h->count[2 * d], MPI_DOUBLE, gr->lo[d], 2 * d + 1,
                         h->recvbuf[2 * d + 1], h->count[2 * d + 1], MPI_DOUBLE, gr->hi[d], 2 * d + 1,
                         gr->cart, MPI_STATUS_IGNORE);
        }
    } else {
        for (f = 0; f < 2 * gr->dim; f++)
            MPI_Irecv(h->recvbuf[f], h->count[f], MPI_DOUBLE, neighbour(gr, f), f, gr->cart, &req[nreq++]);
        for (f = 0; f < 2 * gr->dim; f++)
            MPI_Isend(h->sendbuf[f], h->count[f], MPI_DOUBLE, neighbour(gr, f), f ^ 1, gr->cart, &req[nreq++]);
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    }
    for (f = 0; f < 2 * gr->dim; f++) {
        if (neighbour(gr, f) == MPI_PROC_NULL)
            continue;
        face_box(gr, f, 0, lo, hi);
        copy_box(gr, u, lo, hi, h->recvbuf[f], 0);
    }
}
