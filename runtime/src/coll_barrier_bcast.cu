/* MPI_Barrier (dissemination: ceil(log2 n) rounds, each rank sending and
 * receiving one empty message per round) and MPI_Bcast (binomial tree:
 * each rank receives from its parent, then sends to all its children at
 * once, the largest subtree first). */
#include "coll.h"

GPUMPI_FN static int gp_barrier_round(gp_sched *s, int k)
{
    if (k > 30 || (1 << k) >= s->n) return 0;
    int d = 1 << k;
    gp_sched_send(s, (s->me + d) % s->n, s->inline_buf, 0, MPI_BYTE);
    gp_sched_recv(s, (s->me - d + s->n) % s->n, s->inline_buf, 0, MPI_BYTE, 1);
    return 1;
}

GPUMPI_FN void gp_coll_barrier(gp_sched *s, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Barrier", comm);
    gp_sched_add_phase(s, gp_barrier_round);
}

GPUMPI_FN static int gp_bcast_round(gp_sched *s, int k)
{
    gp_coll_args *a = &s->a;
    int rel = gp_tree_rel(s, a->root), size = gp_tree_subtree(rel, s->n);
    if (k == 0) {
        if (rel) gp_sched_recv(s, gp_tree_real(s, a->root, gp_tree_parent(rel)), a->rbuf, a->rcount, a->rtype, 1);
        return 1;
    }
    if (k > 1) return 0;
    for (int m = gp_pow2_below(size); m > 0; m >>= 1)
        gp_sched_send(s, gp_tree_real(s, a->root, rel + m), a->rbuf, a->rcount, a->rtype);
    return 1;
}

GPUMPI_FN void gp_coll_bcast(gp_sched *s, void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
    gp_sched_init(s, "MPI_Bcast", comm);
    if (gp_coll_bytes(count, type) == 0) return; /* every rank's signature is the same: all skip */
    s->a.rbuf = buf;
    s->a.rcount = count;
    s->a.rtype = type;
    s->a.root = root;
    gp_sched_add_phase(s, gp_bcast_round);
}

GPUMPI_FN int MPI_Barrier(MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Barrier", comm));
    gp_sched s;
    gp_coll_barrier(&s, comm);
    return gp_coll_run(&s);
}

GPUMPI_FN int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Bcast", comm));
    GP_TRY(gp_type_check(comm, "MPI_Bcast", datatype, count));
    GP_TRY(gp_coll_check_root(comm, "MPI_Bcast", root));
    GP_TRY(gp_coll_check_not_in_place(comm, "MPI_Bcast", buffer, "the buffer"));
    gp_sched s;
    gp_coll_bcast(&s, buffer, count, datatype, root, comm);
    return gp_coll_run(&s);
}
