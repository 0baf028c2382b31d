/* Making communicators: MPI_Comm_dup, MPI_Comm_split (and split_type,
 * create, which are splits), all collective over the parent.
 *
 * A split never gathers every (color, key) into every rank. The parent's
 * rank 0 allocates one shared table of n entries and broadcasts its
 * address; each rank writes its (color, key, world rank) and, after a
 * barrier, reads the table once (O(n) per rank, read in the same order by
 * every rank, so a warp's reads are one broadcast each) to learn its new
 * rank, its color's size, its position by world rank, its color's leader
 * (new rank 0) and the world rank of its successor. The leader allocates
 * the context and decides, from the members' successor distances, whether
 * the new communicator is a progression of world ranks (no map at all) or
 * needs one shared map, which the members fill in parallel. After that,
 * waits are per color on counters in the leader's entry; the last rank
 * done with the table frees it. */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

typedef struct gp_split_in {
    int color, key, world;
} gp_split_in;

/* Written by the members of a color into their leader's entry. */
typedef struct gp_split_lead {
    uint32_t dmin, dmax;    /* successor distances (as int), atomic min/max */
    uint32_t arrived;       /* members that posted their distance */
    uint32_t ready;         /* 1 once the leader published ctx and the ranks */
    uint32_t filled;        /* members that wrote their map entries */
    int ctx;
    gp_ranks ranks;         /* map: refs already counted for every member */
} gp_split_lead;

typedef struct gp_split_table {
    uint32_t done; /* ranks finished with the table: the last frees it */
    int n;
    gp_split_in *in;
    gp_split_lead *lead;
} gp_split_table;

GPUMPI_FN static void gp_atomic_min_int(uint32_t *p, int v)
{
    uint32_t cur = gp_load_acquire(p);
    while ((int)cur > v && !gp_cas(p, cur, (uint32_t)v)) cur = gp_load_acquire(p);
}

GPUMPI_FN static void gp_atomic_max_int(uint32_t *p, int v)
{
    uint32_t cur = gp_load_acquire(p);
    while ((int)cur < v && !gp_cas(p, cur, (uint32_t)v)) cur = gp_load_acquire(p);
}

GPUMPI_FN static void gp_wait_for(uint32_t *p, uint32_t want)
{
    unsigned spins = 0;
    gp_hand_back();
    while (gp_load_acquire(p) != want) gp_pause(&spins);
}

GPUMPI_FN static gp_split_table *gp_split_table_new(int n)
{
    size_t head = (sizeof(gp_split_table) + 15) & ~(size_t)15;
    size_t in_bytes = ((sizeof(gp_split_in) * (size_t)n) + 15) & ~(size_t)15;
    gp_split_table *t = (gp_split_table *)gp_malloc(head + in_bytes + sizeof(gp_split_lead) * (size_t)n);
    if (!t) return 0;
    t->done = 0;
    t->n = n;
    t->in = (gp_split_in *)((char *)t + head);
    t->lead = (gp_split_lead *)((char *)t + head + in_bytes);
    return t;
}

/* (key, parent rank) order: the order of the new ranks. */
GPUMPI_FN static inline int gp_before(int key_a, int a, int key_b, int b) { return key_a < key_b || (key_a == key_b && a < b); }

GPUMPI_FN int gp_comm_split(const char *fn, MPI_Comm parent, int color, int key, MPI_Comm *out)
{
    int n = gp_comm_size(parent), me = gp_comm_rank(parent), my_world = gp_thread_rank();
    gp_split_table *t = 0;
    if (me == 0 && !(t = gp_split_table_new(n)))
        return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-entry split table", n);
    MPI_Bcast(&t, (int)sizeof t, MPI_BYTE, 0, parent);
    t->in[me].color = color;
    t->in[me].key = key;
    t->in[me].world = my_world;
    gp_split_lead *mine = &t->lead[me];
    gp_memset(mine, 0, sizeof *mine);
    mine->dmin = (uint32_t)0x7fffffff;
    mine->dmax = (uint32_t)0x80000000;
    MPI_Barrier(parent);

    *out = MPI_COMM_NULL;
    if (color != MPI_UNDEFINED) {
        /* one pass over the table */
        int size = 0, new_rank = 0, wpos = 0, leader = -1, lead_key = 0, succ = -1, succ_key = 0;
        for (int j = 0; j < n; j++) {
            gp_split_in e = t->in[j];
            if (e.color != color) continue;
            size++;
            if (gp_before(e.key, j, key, me)) new_rank++;
            if (e.world < my_world) wpos++;
            if (leader < 0 || gp_before(e.key, j, lead_key, leader)) leader = j, lead_key = e.key;
            if (gp_before(key, me, e.key, j) && (succ < 0 || gp_before(e.key, j, succ_key, succ)))
                succ = j, succ_key = e.key;
        }
        gp_split_lead *L = &t->lead[leader];
        if (succ >= 0) {
            int d = t->in[succ].world - my_world;
            gp_atomic_min_int(&L->dmin, d);
            gp_atomic_max_int(&L->dmax, d);
        }
        gp_fetch_add(&L->arrived, 1);
        if (new_rank == 0) {
            gp_wait_for(&L->arrived, (uint32_t)size);
            L->ctx = gp_ctx_alloc(fn);
            L->ranks.size = size;
            L->ranks.first = my_world;
            L->ranks.stride = size > 1 ? (int)L->dmin : 1;
            L->ranks.map = 0;
            if (size > 1 && L->dmin != L->dmax) {
                L->ranks.map = gp_rankmap_new(size, (uint32_t)size);
                if (!L->ranks.map)
                    return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-rank communicator", size);
            }
            gp_store_release(&L->ready, 1);
        } else {
            gp_wait_for(&L->ready, 1);
        }
        gp_ranks ranks = L->ranks;
        int ctx = L->ctx;
        if (ranks.map) {
            ranks.map->world[new_rank] = my_world;
            ranks.map->by_world[wpos] = ((int64_t)my_world << 32) | (uint32_t)new_rank;
            gp_fetch_add(&L->filled, 1);
            gp_wait_for(&L->filled, (uint32_t)size);
        }
        *out = gp_comm_make(parent, &ranks, new_rank, ctx);
    }
    if (gp_fetch_add(&t->done, 1) == (uint32_t)n - 1) gp_free(t);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm)
{
    GP_TRY(gp_comm_check("MPI_Comm_split", comm));
    if (color < 0 && color != MPI_UNDEFINED)
        return gp_err(comm, "MPI_Comm_split", MPI_ERR_ARG, "invalid color %d (colors are >= 0 or MPI_UNDEFINED)",
                      color);
    if (gp_comm_is_inter(comm)) return gp_intercomm_split("MPI_Comm_split", comm, color, key, newcomm);
    return gp_comm_split("MPI_Comm_split", comm, color, key, newcomm);
}

/* MPI_COMM_TYPE_HW_GUIDED: the one resource type the standard names,
 * "mpi_shared_memory", is the one device every rank shares; any other (or
 * none) gives MPI_COMM_NULL, as the standard allows. */
GPUMPI_FN static int gp_hw_guided_known(MPI_Info info, int *known)
{
    char type[32];
    int len = (int)sizeof type, flag = 0;
    *known = 0;
    if (info == MPI_INFO_NULL) return MPI_SUCCESS;
    GP_TRY(MPI_Info_get_string(info, "mpi_hw_resource_type", &len, type, &flag));
    *known = flag && len <= (int)sizeof type && !gp_strcmp(type, "mpi_shared_memory");
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm)
{
    GP_TRY(gp_comm_check("MPI_Comm_split_type", comm));
    int shared; /* every rank shares the one device's memory: one color, or none */
    switch (split_type) {
    case MPI_COMM_TYPE_SHARED: shared = 1; break;
    case MPI_COMM_TYPE_HW_GUIDED: GP_TRY(gp_hw_guided_known(info, &shared)); break;
    case MPI_COMM_TYPE_HW_UNGUIDED: shared = 0; break; /* no level below the device that ranks see */
    case MPI_UNDEFINED: shared = 0; break;
    default: return gp_err(comm, "MPI_Comm_split_type", MPI_ERR_ARG, "unknown split type %d", split_type);
    }
    return gp_comm_split("MPI_Comm_split_type", comm, shared ? 0 : MPI_UNDEFINED, key, newcomm);
}

GPUMPI_FN int MPI_Comm_create(MPI_Comm comm, MPI_Group group, MPI_Comm *newcomm)
{
    GP_TRY(gp_comm_check("MPI_Comm_create", comm));
    GP_TRY(gp_group_check("MPI_Comm_create", group));
    gp_group *g = gp_group_find(group);
    int gsize = g ? g->ranks.size : 0, grank = g ? g->rank : MPI_UNDEFINED;
    /* on an intercommunicator each group passes a group of its own side */
    if (gp_comm_is_inter(comm))
        return gp_intercomm_split("MPI_Comm_create", comm, grank == MPI_UNDEFINED ? MPI_UNDEFINED : 0, grank, newcomm);
    if (gsize > gp_comm_size(comm))
        return gp_err(comm, "MPI_Comm_create", MPI_ERR_GROUP, "the group has %d ranks, the communicator only %d", gsize,
                      gp_comm_size(comm));
    /* since MPI-2.2 the ranks may pass disjoint groups, one communicator
     * each: the color is the group's first member (its world rank), which
     * the members of one group agree on and disjoint groups do not share */
    int color = grank == MPI_UNDEFINED ? MPI_UNDEFINED : gp_ranks_world(&g->ranks, 0);
    GP_TRY(gp_comm_split("MPI_Comm_create", comm, color, grank, newcomm));
    if (*newcomm != MPI_COMM_NULL && gp_comm_size(*newcomm) != gsize) {
        MPI_Comm_free(newcomm);
        return gp_err(comm, "MPI_Comm_create", MPI_ERR_GROUP,
                      "the group has ranks outside the communicator (%d of its %d ranks are in it)",
                      gp_comm_size(*newcomm), gsize);
    }
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_comm_dup_attrs(const char *fn, MPI_Comm comm, MPI_Info hints, MPI_Comm h, MPI_Comm *newcomm);

/* MPI_Comm_dup and its variants: the same ranks in a new context, with the
 * topology, the attributes (through their copy callbacks) and the hints:
 * the parent's, or info's when with_info (MPI_Comm_dup_with_info). */
GPUMPI_FN int gp_comm_dup(const char *fn, MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm)
{
    MPI_Info hints;
    GP_TRY(gp_comm_dup_hints(fn, comm, with_info, info, newcomm, &hints));
    int ctx[2] = {0, 0};
    if (gp_comm_is_inter(comm)) {
        gp_intercomm_dup_agree(fn, comm, ctx);
    } else {
        if (gp_comm_rank(comm) == 0) ctx[0] = gp_ctx_alloc(fn);
        MPI_Bcast(ctx, 1, MPI_INT, 0, comm);
    }
    return gp_comm_dup_as(fn, comm, hints, ctx[0], ctx[1], newcomm);
}

GPUMPI_FN int gp_comm_dup_hints(const char *fn, MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm,
                                MPI_Info *hints)
{
    GP_TRY(gp_comm_check(fn, comm));
    if (!newcomm) return gp_err(comm, fn, MPI_ERR_ARG, "the newcomm argument is NULL");
    *hints = MPI_INFO_NULL;
    if (with_info && info != MPI_INFO_NULL) GP_TRY(gp_info_copy_comm_hints(fn, info, hints));
    if (!with_info && gp_comm_find(comm)->info != MPI_INFO_NULL)
        GP_TRY(gp_info_copy(fn, gp_comm_find(comm)->info, hints));
    return MPI_SUCCESS;
}

/* The dup's hints and attributes (through their copy callbacks) on h. */
GPUMPI_FN static int gp_comm_dup_attrs(const char *fn, MPI_Comm comm, MPI_Info hints, MPI_Comm h, MPI_Comm *newcomm)
{
    gp_comm_find(h)->info = hints;
    int rc = gp_attrs_copy(GP_ATTR_COMM, comm, h);
    if (rc != MPI_SUCCESS) {
        MPI_Comm_free(&h);
        *newcomm = MPI_COMM_NULL;
        return gp_err(comm, fn, rc, "an attribute copy callback failed with %d", rc);
    }
    *newcomm = h;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_comm_dup_as(const char *fn, MPI_Comm comm, MPI_Info hints, int ctx, int local_ctx,
                             MPI_Comm *newcomm)
{
    if (gp_comm_is_inter(comm))
        return gp_comm_dup_attrs(fn, comm, hints, gp_intercomm_dup_as(comm, ctx, local_ctx), newcomm);
    gp_comm *c = gp_comm_find(comm);
    gp_ranks ranks = c->ranks;
    gp_ranks_retain(&ranks);
    MPI_Comm h = gp_comm_make(comm, &ranks, c->rank, ctx);
    c = gp_comm_find(comm); /* the table may have moved */
    gp_comm *n = gp_comm_find(h);
    if (c->topo) {
        gp_topo *t = c->topo;
        n->topo = gp_topo_new(t->ndims, GP_TOPO_DIMS(t), GP_TOPO_PERIODS(t));
    }
    gp_topo_copy_graphs(c, n);
    return gp_comm_dup_attrs(fn, comm, hints, h, newcomm);
}

GPUMPI_FN int MPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm)
{
    return gp_comm_dup("MPI_Comm_dup", comm, 0, MPI_INFO_NULL, newcomm);
}

/* Agreeing on a context within a group alone: its position 0 takes one
 * from the world's counter and it travels down a binomial tree over group
 * positions (log n rounds), addressed by world rank in a context of its
 * own that no communicator uses. The tag keeps concurrent calls on
 * overlapping groups apart; messages between two ranks arrive in order,
 * so calls the members make in the same order pair up. */

typedef struct gp_ctx_offer {
    int64_t ctx;
    uint64_t check;
} gp_ctx_offer;

GPUMPI_FN int gp_group_agree_ctx(const char *fn, const gp_ranks *ranks, int me, int tag, uint64_t check)
{
    int n = ranks->size;
    gp_ctx_offer offer = {me == 0 ? gp_ctx_alloc(fn) : 0, check};
    int mask = 1;
    while (mask < n) {
        if (me & mask) {
            int src, got_tag;
            size_t got;
            gp_recv_bytes(&offer, sizeof offer, gp_ranks_world(ranks, me - mask), tag, GP_CTX_CREATE_GROUP, &src,
                          &got_tag, &got);
            if (offer.check != check) /* two string tags whose 30 bits collide, in calls at once */
                gp_fatal(fn, MPI_ERR_INTERN,
                         "two concurrent calls on overlapping groups have string tags that gpumpi cannot tell "
                         "apart; give one another tag");
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (me + mask < n) gp_send_bytes(&offer, sizeof offer, gp_ranks_world(ranks, me + mask), tag, GP_CTX_CREATE_GROUP);
    return (int)offer.ctx;
}

GPUMPI_FN uint64_t gp_stringtag_hash(const char *s)
{
    uint64_t h = 14695981039346656037ull;
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* MPI_Comm_create_group: collective over the group only. The new
 * communicator's ranks are the group's. */
GPUMPI_FN int MPI_Comm_create_group(MPI_Comm comm, MPI_Group group, int tag, MPI_Comm *newcomm)
{
    GP_TRY(gp_comm_check("MPI_Comm_create_group", comm));
    GP_TRY(gp_group_check("MPI_Comm_create_group", group));
    GP_TRY(gp_check_tag(comm, "MPI_Comm_create_group", tag, 0));
    gp_group *g = gp_group_find(group);
    *newcomm = MPI_COMM_NULL;
    if (!g || g->rank == MPI_UNDEFINED) return MPI_SUCCESS; /* not a member */
    gp_ranks ranks = g->ranks;
    int me = g->rank, ctx = gp_group_agree_ctx("MPI_Comm_create_group", &ranks, me, tag, 0);
    gp_ranks_retain(&ranks);
    *newcomm = gp_comm_make(comm, &ranks, me, ctx);
    return MPI_SUCCESS;
}
