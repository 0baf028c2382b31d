/* Intercommunicators: MPI_Intercomm_create, MPI_Intercomm_merge,
 * MPI_Comm_remote_size/group, and what MPI_Comm_dup, MPI_Comm_split and
 * MPI_Comm_create do on one.
 *
 * An intercommunicator is a gp_comm with `inter` set: its ranks are the
 * local group, `remote` the remote group (point to point addresses it:
 * comm.cu's peer lookups), `local` a hidden intracommunicator of the local
 * group (the local halves of its collectives and of these calls). The
 * groups are disjoint sets of world ranks, so the two groups share one
 * context pair without ever taking each other's local messages.
 *
 * The two local leaders (local rank 0, remote rank 0) talk in the
 * intercommunicator's collective context with tag GP_IC_TAG, which no
 * schedule uses (their tags are >= 0): a few bytes each time, then what
 * they learnt is broadcast in each group. Where both groups need one new
 * context, the group whose leader has the smaller world rank allocates it. */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

#define GP_IC_TAG (-3)

GPUMPI_FN static gp_comm *gp_ic(MPI_Comm comm) { return gp_comm_find(comm); }

/* Two leaders swap out_bytes for in_bytes (each side knows both); the
 * send starts before the receive, so neither waits on the other's. */
GPUMPI_FN static void gp_leaders_swap(int peer_world, int ctx, int tag, const void *out, size_t out_bytes, void *in,
                                      size_t in_bytes)
{
    int src, got_tag;
    size_t got;
    gp_msg *m = gp_send_start(out, (int)out_bytes, MPI_BYTE, peer_world, tag, ctx, GP_SEND_STANDARD);
    gp_recv_bytes(in, in_bytes, peer_world, tag, ctx, &src, &got_tag, &got);
    if (m) gp_send_wait(m);
}

/* The same between an intercommunicator's leaders. */
GPUMPI_FN static void gp_ic_leaders_swap(MPI_Comm ic, const void *out, size_t out_bytes, void *in, size_t in_bytes)
{
    gp_comm *c = gp_ic(ic);
    gp_leaders_swap(gp_ranks_world(&c->remote, 0), c->ctx + 1, GP_IC_TAG, out, out_bytes, in, in_bytes);
}

/* Whether this rank's group allocates what both groups share. */
GPUMPI_FN static int gp_ic_allocates(const gp_comm *c)
{
    return gp_ranks_world(&c->ranks, 0) < gp_ranks_world(&c->remote, 0);
}

GPUMPI_FN int gp_intercomm_allocates(MPI_Comm ic) { return gp_ic_allocates(gp_ic(ic)); }

/* Makes the intercommunicator handle (error handler from parent): local group from the intracomm
 * `local` (which it keeps as its hidden one), remote group `remote`
 * (a reference of this rank's already taken), context pair ctx. */
GPUMPI_FN static MPI_Comm gp_ic_make(MPI_Comm parent, MPI_Comm local, const gp_ranks *remote, int ctx)
{
    gp_comm *l = gp_comm_find(local);
    gp_ranks ranks = l->ranks;
    gp_ranks_retain(&ranks);
    MPI_Comm h = gp_comm_make(parent, &ranks, l->rank, ctx); /* the parent's error handler */
    gp_comm *c = gp_comm_find(h);
    c->inter = 1;
    c->remote = *remote;
    c->local = local;
    return h;
}

/* What one leader tells the other when the intercomm is made. */
typedef struct gp_ic_hello {
    int size, world, ctx;
} gp_ic_hello;

/* What a leader broadcasts to its group. */
typedef struct gp_ic_made {
    gp_ranks remote;
    int ctx, local_ctx;
} gp_ic_made;

GPUMPI_FN int MPI_Intercomm_create(MPI_Comm local_comm, int local_leader, MPI_Comm peer_comm, int remote_leader,
                                   int tag, MPI_Comm *newintercomm)
{
    const char *fn = "MPI_Intercomm_create";
    GP_TRY(gp_comm_check(fn, local_comm));
    if (!newintercomm) return gp_err(local_comm, fn, MPI_ERR_ARG, "the newintercomm argument is NULL");
    if (gp_comm_find(local_comm)->inter)
        return gp_err(local_comm, fn, MPI_ERR_COMM, "the local communicator is an intercommunicator");
    int n = gp_comm_size(local_comm), me = gp_comm_rank(local_comm);
    if (local_leader < 0 || local_leader >= n)
        return gp_err(local_comm, fn, MPI_ERR_RANK, "invalid local leader %d (the local communicator has %d ranks)",
                      local_leader, n);
    gp_ic_made made;
    gp_memset(&made, 0, sizeof made);
    if (me == local_leader) {
        GP_TRY(gp_comm_check(fn, peer_comm));
        GP_TRY(gp_check_peer(fn, peer_comm, remote_leader, 0));
        if (remote_leader == MPI_PROC_NULL)
            return gp_err(peer_comm, fn, MPI_ERR_RANK, "the remote leader is MPI_PROC_NULL");
        gp_ic_hello mine = {n, gp_thread_rank(), gp_ctx_alloc(fn)}, theirs;
        MPI_Status st;
        MPI_Sendrecv(&mine, 3, MPI_INT, remote_leader, tag, &theirs, 3, MPI_INT, remote_leader, tag, peer_comm, &st);
        if (theirs.world == mine.world)
            return gp_err(local_comm, fn, MPI_ERR_ARG, "the remote leader is this rank: the groups must be disjoint");
        /* the other group's members each take a reference to our ranks:
         * taken here, before they can see them, while local_comm lives */
        gp_ranks ours = gp_comm_find(local_comm)->ranks;
        for (int i = 0; i < theirs.size; i++) gp_ranks_retain(&ours);
        gp_ranks remote;
        MPI_Sendrecv(&ours, (int)sizeof ours, MPI_BYTE, remote_leader, tag, &remote, (int)sizeof remote, MPI_BYTE,
                     remote_leader, tag, peer_comm, &st);
        made.remote = remote;
        made.ctx = mine.world < theirs.world ? mine.ctx : theirs.ctx;
        made.local_ctx = gp_ctx_alloc(fn);
    }
    MPI_Bcast(&made, (int)sizeof made, MPI_BYTE, local_leader, local_comm);
    /* the hidden local intracomm: local_comm's ranks in a context of its own */
    gp_ranks ranks = gp_comm_find(local_comm)->ranks;
    gp_ranks_retain(&ranks);
    MPI_Comm local = gp_comm_make(local_comm, &ranks, me, made.local_ctx);
    *newintercomm = gp_ic_make(local_comm, local, &made.remote, made.ctx);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Intercomm_merge(MPI_Comm intercomm, int high, MPI_Comm *newintracomm)
{
    const char *fn = "MPI_Intercomm_merge";
    GP_TRY(gp_comm_check(fn, intercomm));
    if (!newintracomm) return gp_err(intercomm, fn, MPI_ERR_ARG, "the newintracomm argument is NULL");
    gp_comm *c = gp_ic(intercomm);
    if (!c || !c->inter) return gp_err(intercomm, fn, MPI_ERR_COMM, "not an intercommunicator");
    /* the leaders agree on which group comes first (the one passing
     * high = false; on a tie, the one with the smaller leader) and on
     * the new context, which the first group's leader allocates */
    int order[2] = {0, 0}; /* [0]: this group goes first, [1]: the context */
    if (c->rank == 0) {
        int mine[2] = {high ? 1 : 0, 0}, theirs[2];
        gp_ic_leaders_swap(intercomm, mine, sizeof mine, theirs, sizeof theirs);
        c = gp_ic(intercomm);
        int first = mine[0] != theirs[0] ? !mine[0] : gp_ic_allocates(c);
        mine[1] = first ? gp_ctx_alloc(fn) : 0;
        gp_ic_leaders_swap(intercomm, mine, sizeof mine, theirs, sizeof theirs);
        order[0] = first;
        order[1] = first ? mine[1] : theirs[1];
    }
    MPI_Bcast(order, 2, MPI_INT, 0, gp_ic(intercomm)->local);
    c = gp_ic(intercomm);
    int nl = c->ranks.size, nr = c->remote.size, n = nl + nr;
    int *world = (int *)gp_malloc(sizeof(int) * (size_t)n);
    if (!world) return gp_err(intercomm, fn, MPI_ERR_NO_MEM, "no device heap left for a %d-rank list", n);
    const gp_ranks *a = order[0] ? &c->ranks : &c->remote, *b = order[0] ? &c->remote : &c->ranks;
    for (int i = 0; i < a->size; i++) world[i] = gp_ranks_world(a, i);
    for (int i = 0; i < b->size; i++) world[a->size + i] = gp_ranks_world(b, i);
    int me = order[0] ? c->rank : nr + c->rank;
    gp_ranks ranks;
    int rc = gp_ranks_from_list(&ranks, world, n);
    gp_free(world);
    if (rc != MPI_SUCCESS) return gp_err(intercomm, fn, rc, "no device heap left for a %d-rank communicator", n);
    *newintracomm = gp_comm_make(intercomm, &ranks, me, order[1]);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_remote_size(MPI_Comm comm, int *size)
{
    GP_TRY(gp_comm_check("MPI_Comm_remote_size", comm));
    gp_comm *c = gp_ic(comm);
    if (!c || !c->inter) return gp_err(comm, "MPI_Comm_remote_size", MPI_ERR_COMM, "not an intercommunicator");
    *size = c->remote.size;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_remote_group(MPI_Comm comm, MPI_Group *group)
{
    GP_TRY(gp_comm_check("MPI_Comm_remote_group", comm));
    gp_comm *c = gp_ic(comm);
    if (!c || !c->inter) return gp_err(comm, "MPI_Comm_remote_group", MPI_ERR_COMM, "not an intercommunicator");
    gp_ranks_retain(&c->remote);
    *group = gp_group_make(&c->remote);
    return MPI_SUCCESS;
}

/* ---- MPI_Comm_dup, split and create on an intercommunicator ------------- */

/* The leaders swap what they allocated (the allocating group's leader the
 * pair both groups share), then each group learns the pair and its own
 * leader's local context. */
GPUMPI_FN void gp_intercomm_dup_agree(const char *fn, MPI_Comm comm, int ctx[2])
{
    gp_comm *c = gp_ic(comm);
    if (c->rank == 0) {
        int allocates = gp_ic_allocates(c), mine = allocates ? gp_ctx_alloc(fn) : 0, theirs = 0;
        gp_ic_leaders_swap(comm, &mine, sizeof mine, &theirs, sizeof theirs);
        ctx[0] = allocates ? mine : theirs;
        ctx[1] = gp_ctx_alloc(fn);
    }
    MPI_Bcast(ctx, 2, MPI_INT, 0, gp_ic(comm)->local);
}

GPUMPI_FN MPI_Comm gp_intercomm_dup_as(MPI_Comm comm, int ctx, int local_ctx)
{
    MPI_Comm hidden = gp_ic(comm)->local;
    gp_comm *l = gp_comm_find(hidden);
    gp_ranks ranks = l->ranks;
    gp_ranks_retain(&ranks);
    MPI_Comm local = gp_comm_make(hidden, &ranks, l->rank, local_ctx);
    gp_ranks remote = gp_ic(comm)->remote; /* the table may have moved */
    gp_ranks_retain(&remote);
    return gp_ic_make(comm, local, &remote, ctx);
}

/* Each group's (color, key) lists, this group's and the other's, then the
 * new intercommunicator for this rank's color: its local half split from
 * the hidden local comm, its remote half the other group's members of
 * the same color in (key, rank) order; MPI_COMM_NULL if either is empty.
 * MPI_Comm_create passes key = rank in the group (MPI_UNDEFINED outside). */
GPUMPI_FN int gp_intercomm_split(const char *fn, MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    *newcomm = MPI_COMM_NULL;
    gp_comm *c = gp_ic(comm);
    MPI_Comm hidden = c->local;
    int nl = c->ranks.size, nr = c->remote.size;
    int *lists = (int *)gp_malloc(sizeof(int) * 2 * (size_t)(nl + nr));
    if (!lists) return gp_err(comm, fn, MPI_ERR_NO_MEM, "no device heap left for %d colors", nl + nr);
    int *ours = lists, *theirs = lists + 2 * nl, mine[2] = {color, key};
    MPI_Allgather(mine, 2, MPI_INT, ours, 2, MPI_INT, hidden);
    if (gp_ic(comm)->rank == 0)
        gp_ic_leaders_swap(comm, ours, sizeof(int) * 2 * (size_t)nl, theirs, sizeof(int) * 2 * (size_t)nr);
    MPI_Bcast(theirs, 2 * nr, MPI_INT, 0, hidden);
    /* one context pair per color both groups have, allocated on this
     * group's side when it allocates (gp_ic_allocates) by the color's
     * new local leader and sent to the other side's (the first of that
     * color in (key, rank) order) */
    MPI_Comm newlocal;
    int rc = gp_comm_split(fn, hidden, color, key, &newlocal);
    if (rc != MPI_SUCCESS) {
        gp_free(lists);
        return rc;
    }
    int count = 0, lead = -1;
    if (color != MPI_UNDEFINED)
        for (int j = 0; j < nr; j++)
            if (theirs[2 * j] == color) {
                count++;
                if (lead < 0 || theirs[2 * j + 1] < theirs[2 * lead + 1]) lead = j;
            }
    if (newlocal == MPI_COMM_NULL || count == 0) {
        if (newlocal != MPI_COMM_NULL) MPI_Comm_free(&newlocal);
        gp_free(lists);
        return MPI_SUCCESS;
    }
    int *world = (int *)gp_malloc(sizeof(int) * (size_t)count);
    if (!world) {
        gp_free(lists);
        return gp_err(comm, fn, MPI_ERR_NO_MEM, "no device heap left for a %d-rank list", count);
    }
    /* (key, rank) order: selection by repeated minimum keeps it simple and stable */
    int filled = 0, last_key = 0, last_j = -1;
    while (filled < count) {
        int best = -1;
        for (int j = 0; j < nr; j++) {
            if (theirs[2 * j] != color) continue;
            int k = theirs[2 * j + 1];
            int after = last_j < 0 || k > last_key || (k == last_key && j > last_j);
            if (after && (best < 0 || k < theirs[2 * best + 1])) best = j;
        }
        world[filled++] = gp_ranks_world(&gp_ic(comm)->remote, best);
        last_key = theirs[2 * best + 1];
        last_j = best;
    }
    gp_ranks remote;
    rc = gp_ranks_from_list(&remote, world, count);
    int remote_lead_world = world[0];
    gp_free(world);
    gp_free(lists);
    if (rc != MPI_SUCCESS) return gp_err(comm, fn, rc, "no device heap left for a %d-rank group", count);
    int ctx = 0, src, tag;
    size_t got;
    int allocates = gp_ic_allocates(gp_ic(comm)), cctx = gp_ic(comm)->ctx + 1;
    if (gp_comm_rank(newlocal) == 0) {
        if (allocates) {
            ctx = gp_ctx_alloc(fn);
            gp_send_bytes(&ctx, sizeof ctx, remote_lead_world, GP_IC_TAG, cctx);
        } else {
            gp_recv_bytes(&ctx, sizeof ctx, remote_lead_world, GP_IC_TAG, cctx, &src, &tag, &got);
        }
    }
    MPI_Bcast(&ctx, 1, MPI_INT, 0, newlocal);
    *newcomm = gp_ic_make(comm, newlocal, &remote, ctx);
    return MPI_SUCCESS;
}

/* MPI-4.0: an intercommunicator from two groups and a string tag, with no
 * communicator to talk over (comm_from_group.cu says how the members of a
 * group agree on a context). Each member has both groups already, so only
 * the context pair needs agreeing: each group makes its hidden local
 * communicator from its group, the two leaders swap contexts they took
 * (the smaller world rank's wins, as in MPI_Intercomm_create) in the
 * context of group creation, and each broadcasts the winner in its
 * group. */
GPUMPI_FN int MPI_Intercomm_create_from_groups(MPI_Group local_group, int local_leader, MPI_Group remote_group,
                                               int remote_leader, const char *stringtag, MPI_Info info,
                                               MPI_Errhandler errhandler, MPI_Comm *newintercomm)
{
    const char *fn = "MPI_Intercomm_create_from_groups";
    GP_TRY(gp_from_group_errh_check(fn, errhandler));
    if (!newintercomm) return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_ARG, "the newintercomm argument is NULL");
    *newintercomm = MPI_COMM_NULL;
    GP_TRY(gp_from_group_check(fn, local_group, "local ", stringtag, errhandler));
    gp_group *lg = gp_group_find(local_group), *rg = gp_group_find(remote_group);
    if (!rg)
        return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_GROUP, "invalid remote group %d (%s)",
                         (int)remote_group, remote_group == MPI_GROUP_EMPTY ? "MPI_GROUP_EMPTY" : "never created, or freed");
    if (rg->rank != MPI_UNDEFINED)
        return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_GROUP,
                         "this rank (world rank %d) is in both groups: they must be disjoint", gp_thread_rank());
    int n = lg->ranks.size, me = lg->rank;
    if (local_leader < 0 || local_leader >= n)
        return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_RANK,
                         "invalid local leader %d (the local group has %d ranks)", local_leader, n);
    if (remote_leader < 0 || remote_leader >= rg->ranks.size)
        return gp_err_on(errhandler, MPI_COMM_NULL, fn, MPI_ERR_RANK,
                         "invalid remote leader %d (the remote group has %d ranks)", remote_leader, rg->ranks.size);
    gp_ranks ranks = lg->ranks, remote = rg->ranks;
    int peer = gp_ranks_world(&remote, remote_leader);
    uint64_t h = gp_stringtag_hash(stringtag);
    int local_ctx = gp_group_agree_ctx(fn, &ranks, me, gp_stringtag_tag(h, 0), h);
    gp_ranks_retain(&ranks);
    MPI_Comm local = gp_comm_make_with(errhandler, &ranks, me, local_ctx);
    int ctx = 0;
    if (me == local_leader) {
        int mine[2] = {gp_thread_rank(), gp_ctx_alloc(fn)}, theirs[2];
        gp_leaders_swap(peer, GP_CTX_CREATE_GROUP, gp_stringtag_tag(h, 1), mine, sizeof mine, theirs, sizeof theirs);
        ctx = mine[0] < theirs[0] ? mine[1] : theirs[1];
    }
    MPI_Bcast(&ctx, 1, MPI_INT, local_leader, local);
    gp_ranks_retain(&remote);
    MPI_Comm ic = gp_ic_make(local, local, &remote, ctx);
    GP_TRY(gp_from_group_hints(fn, ic, info));
    *newintercomm = ic;
    return MPI_SUCCESS;
}
