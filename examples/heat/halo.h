/* Ghost-layer exchange with the face neighbours. */
#ifndef HEAT_HALO_H
#define HEAT_HALO_H
#include "grid.h"

struct halo {
    int mode;                 /* HALO_SENDRECV or HALO_ISEND (params.h) */
    double *sendbuf[6], *recvbuf[6]; /* per face: dimension * 2 + side */
    int count[6];
};

void halo_init(struct halo *h, const struct grid *gr, int mode);
void halo_free(struct halo *h);
/* Fills u's ghost layers from the neighbours; ghosts on the domain's edge
 * are left as they are (the boundary values). */
void halo_exchange(struct halo *h, const struct grid *gr, double *u);

#endif
