/* Making communicators: MPI_Comm_dup, MPI_Comm_split (and split_type,
 * create, which are splits), all collective over the parent.
 *
 * A split sorts the parent's (color, key, rank) in place, one entry per
 * rank, in a table that the parent's rank 0 allocates (gp_split_sort: a
 * bitonic network, one step per parent barrier, log^2 n / 2 steps). A
 * color is then a run of the sorted table: the rank at each position
 * finds its run's ends by binary search and tells the entry's owner its
 * new rank, the color's size and its first world rank and stride. Only
 * colors that are no progression of world ranks need a map, and for
 * them a second sort by world rank gives each member its place in the
 * map's world-ordered half. Every wait is a barrier over the parent: the
 * former per-color counters, which every member of a color hit at once,
 * took 6 s for a two-color split of 540,672 ranks over two GPUs, and
 * each rank's pass over the whole table made a split O(n) per rank. */
#include "comm_impl.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

/* One sort entry: ordered by (hi, mid, rank), lexicographically; pay is
 * carried along. */
typedef struct gp_split_ent {
    uint32_t hi, mid, rank, pay;
} gp_split_ent;

/* What the rank at a sorted position tells the entry's owner. */
typedef struct gp_split_out {
    int new_rank, size, run; /* run: the color's first sorted position, its lead entry */
    int first, stride;       /* world ranks of new ranks 0 and 1 - 0 */
    int wpos;                /* place among the color's members by world rank (with a map) */
} gp_split_out;

/* One per color, at its run's first position. */
typedef struct gp_split_lead {
    uint32_t needs_map; /* some member's successor is not `stride` away */
    int ctx;
    gp_rankmap *map;
} gp_split_lead;

typedef struct gp_split_table {
    gp_split_ent *ent[2]; /* the sort's two buffers */
    gp_split_out *out;
    gp_split_lead *lead;
} gp_split_table;

#define GP_SPLIT_NONE 0xffffffffu /* MPI_UNDEFINED's color: sorts after every color */

GPUMPI_FN static size_t gp_round16(size_t b) { return (b + 15) & ~(size_t)15; }

GPUMPI_FN static gp_split_table *gp_split_table_new(int n)
{
    size_t head = gp_round16(sizeof(gp_split_table)), ents = gp_round16(sizeof(gp_split_ent) * (size_t)n),
           outs = gp_round16(sizeof(gp_split_out) * (size_t)n);
    char *p = (char *)gp_malloc(head + 2 * ents + outs + sizeof(gp_split_lead) * (size_t)n);
    if (!p) return 0;
    gp_split_table *t = (gp_split_table *)p;
    t->ent[0] = (gp_split_ent *)(p + head);
    t->ent[1] = (gp_split_ent *)(p + head + ents);
    t->out = (gp_split_out *)(p + head + 2 * ents);
    t->lead = (gp_split_lead *)(p + head + 2 * ents + outs);
    return t;
}

GPUMPI_FN static inline int gp_ent_less(const gp_split_ent &a, const gp_split_ent &b)
{
    if (a.hi != b.hi) return a.hi < b.hi;
    if (a.mid != b.mid) return a.mid < b.mid;
    return a.rank < b.rank;
}

/* Sorts the parent's entries, `mine` being this rank's, with position me
 * of the table held by parent rank me; returns the buffer holding the
 * result. All comparators put the smaller entry at the lower position
 * (each merge's first step pairs a block's mirror positions), so the
 * padding up to a power of two, taken as larger than every entry, never
 * moves and needs no owner. */
GPUMPI_FN static const gp_split_ent *gp_split_sort(gp_split_table *t, int n, int me, gp_split_ent mine, MPI_Comm parent)
{
    int src = 0;
    int pow2 = 1;
    while (pow2 < n) pow2 <<= 1;
    t->ent[src][me] = mine;
    MPI_Barrier(parent);
    for (int k = 2; k <= pow2; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1) {
            int partner = j == k >> 1 ? me ^ (k - 1) : me ^ j;
            if (partner < n) {
                gp_split_ent theirs = t->ent[src][partner];
                if ((me < partner) == gp_ent_less(theirs, mine)) mine = theirs;
            }
            t->ent[src ^ 1][me] = mine;
            src ^= 1;
            MPI_Barrier(parent);
        }
    return t->ent[src];
}

/* The first position in [lo, hi) whose color is above `color`, or not
 * below it when `above` is 0. */
GPUMPI_FN static int gp_split_bound(const gp_split_ent *s, int lo, int hi, uint32_t color, int above)
{
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (above ? s[mid].hi <= color : s[mid].hi < color)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

GPUMPI_FN int gp_comm_split(const char *fn, MPI_Comm parent, int color, int key, MPI_Comm *out)
{
    int n = gp_comm_size(parent), me = gp_comm_rank(parent), my_world = gp_thread_rank();
    uint32_t my_color = color == MPI_UNDEFINED ? GP_SPLIT_NONE : (uint32_t)color;
    gp_split_table *t = 0;
    if (me == 0 && !(t = gp_split_table_new(n)))
        return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-entry split table", n);
    MPI_Bcast(&t, (int)sizeof t, MPI_BYTE, 0, parent);
    gp_split_lead *own_lead = &t->lead[me];
    own_lead->needs_map = 0;
    own_lead->map = 0;

    /* by (color, key, parent rank): the new ranks' order; the world rank rides along */
    gp_split_ent mine = {my_color, (uint32_t)key ^ 0x80000000u, (uint32_t)me, (uint32_t)my_world};
    const gp_split_ent *s = gp_split_sort(t, n, me, mine, parent);
    gp_split_ent at = s[me];
    int any_map = 0;
    if (at.hi != GP_SPLIT_NONE) {
        int lo = gp_split_bound(s, 0, me, at.hi, 0), hi = gp_split_bound(s, me + 1, n, at.hi, 1);
        gp_split_out o = {me - lo, hi - lo, lo, (int)s[lo].pay, hi - lo > 1 ? (int)(s[lo + 1].pay - s[lo].pay) : 1, 0};
        if (me + 1 < hi && me > lo && (int)(s[me + 1].pay - at.pay) != o.stride) {
            any_map = 1;
            if (!gp_load_acquire(&t->lead[lo].needs_map)) gp_store_release(&t->lead[lo].needs_map, 1);
        }
        t->out[at.rank] = o;
    }
    MPI_Barrier(parent); /* the out and lead entries written above: a barrier orders plain stores, */
    MPI_Allreduce(MPI_IN_PLACE, &any_map, 1, MPI_INT, MPI_MAX, parent); /* an allreduce only its values */
    gp_split_out o = t->out[me];

    if (any_map) { /* by (color, world rank): each member's place in its map's world-ordered half */
        gp_split_ent by_world = {my_color, (uint32_t)my_world, (uint32_t)me, 0};
        s = gp_split_sort(t, n, me, by_world, parent);
        at = s[me];
        if (at.hi != GP_SPLIT_NONE) t->out[at.rank].wpos = me - gp_split_bound(s, 0, me, at.hi, 0);
        MPI_Barrier(parent);
        o.wpos = t->out[me].wpos;
    }

    gp_split_lead *L = color == MPI_UNDEFINED ? 0 : &t->lead[o.run];
    if (L && o.new_rank == 0) {
        L->ctx = gp_ctx_alloc(fn);
        if (L->needs_map && !(L->map = gp_rankmap_new(o.size, (uint32_t)o.size)))
            return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for a %d-rank communicator", o.size);
    }
    MPI_Barrier(parent);
    gp_ranks ranks = {0, 0, 1, 0};
    int ctx = 0;
    if (L) {
        ranks.size = o.size;
        ranks.first = o.first;
        ranks.stride = o.stride;
        ranks.map = L->map;
        ctx = L->ctx;
        if (ranks.map) {
            ranks.map->world[o.new_rank] = my_world;
            ranks.map->by_world[o.wpos] = ((int64_t)my_world << 32) | (uint32_t)o.new_rank;
        }
    }
    MPI_Barrier(parent); /* the maps are whole, and nobody reads the table any more */
    if (me == 0) gp_free(t);
    *out = MPI_COMM_NULL;
    if (L) *out = gp_comm_make(parent, &ranks, o.new_rank, ctx);
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
