/* Communicators: the calling rank's table of handles, the lookups every
 * MPI function uses (ranks, contexts), and the local calls (rank, size,
 * compare, group, names, free). Creation is in comm_split.cu. */
#include "comm_impl.h"
#include "local_inline.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN int gp_table_reserve(void **table, int *cap, int need, size_t elem)
{
    if (need <= *cap) return 1;
    int grown = *cap ? *cap * 2 : 4;
    while (grown < need) grown *= 2;
    void *t = gp_tables_malloc(elem * (size_t)grown);
    if (!t) return 0;
    if (*cap) gp_memcpy(t, *table, elem * (size_t)*cap);
    gp_memset((char *)t + elem * (size_t)*cap, 0, elem * (size_t)(grown - *cap));
    gp_free(*table);
    *table = t;
    *cap = grown;
    return 1;
}

GPUMPI_FN static gp_comm_state *gp_cs_new(void)
{
    gp_rank *me = gp_self();
    gp_comm_state *cs = (gp_comm_state *)gp_tables_malloc(sizeof(gp_comm_state));
    if (!cs) gp_fatal("MPI_Init", MPI_ERR_NO_MEM, "no device heap left for the communicator table");
    gp_memset(cs, 0, sizeof *cs);
    if (!gp_table_reserve((void **)&cs->comms, &cs->cap_comms, 4, sizeof(gp_comm)))
        gp_fatal("MPI_Init", MPI_ERR_NO_MEM, "no device heap left for the communicator table");
    int n = gp_w()->nranks, r = gp_thread_rank();
    gp_comm *world = &cs->comms[MPI_COMM_WORLD], *self = &cs->comms[MPI_COMM_SELF];
    world->live = me->init_state == 1; /* gp_comm_world_open */
    world->rank = r;
    world->ranks.size = n;
    world->ranks.first = 0;
    world->ranks.stride = 1;
    world->ctx = GP_WORLD_CTX;
    world->eh = MPI_ERRORS_ARE_FATAL;
    self->live = world->live;
    self->rank = 0;
    self->ranks.size = 1;
    self->ranks.first = r;
    self->ranks.stride = 1;
    self->ctx = 4; /* shared by every rank's SELF: its messages never leave the rank */
    self->eh = MPI_ERRORS_ARE_FATAL;
    cs->ncomms = 3;
    cs->thread_level = MPI_THREAD_SINGLE;
    cs->attr_values[MPI_TAG_UB] = MPI_TAG_UB_VALUE;
    cs->attr_values[MPI_HOST] = MPI_PROC_NULL;
    cs->attr_values[MPI_IO] = MPI_ANY_SOURCE; /* every rank can do I/O */
    cs->attr_values[MPI_WTIME_IS_GLOBAL] = 1;  /* one clock: the GPU's global timer */
    cs->attr_values[MPI_UNIVERSE_SIZE] = n;
    cs->attr_values[MPI_APPNUM] = 0;
    cs->attr_values[MPI_LASTUSEDCODE] = MPI_ERR_LASTCODE;
    me->comm_state = cs;
    return cs;
}

GPUMPI_FN gp_comm_state *gp_cs(void)
{
    gp_comm_state *cs = (gp_comm_state *)gp_self()->comm_state;
    return cs ? cs : gp_cs_new();
}

/* The table may exist before MPI_Init (a session, an info object) and
 * outlive MPI_Finalize (sessions): the two predefined communicators are
 * valid handles only in between. */
GPUMPI_FN void gp_comm_world_open(int open)
{
    gp_comm_state *cs = gp_cs();
    cs->comms[MPI_COMM_WORLD].live = open;
    cs->comms[MPI_COMM_SELF].live = open;
}

/* Lookups never fail: an invalid handle reads as MPI_COMM_WORLD, and the
 * check that every MPI function makes first raises the error. A
 * communicator freed while receives on it were pending still answers
 * (the standard lets them complete). */
GPUMPI_FN static gp_comm *gp_comm_at(MPI_Comm comm)
{
    gp_comm_state *cs = gp_cs();
    if (comm > 0 && comm < cs->ncomms && (cs->comms[comm].live || cs->comms[comm].zombie)) return &cs->comms[comm];
    return &cs->comms[MPI_COMM_WORLD];
}

/* What a communicator holds beyond its handle's lifetime. */
GPUMPI_FN static void gp_comm_release(gp_comm *c)
{
    gp_ranks_release(&c->ranks);
    if (c->inter) gp_ranks_release(&c->remote);
    gp_errh_release(c->eh);
    c->zombie = 0;
}

/* A freed communicator can go once nothing may still look it up. */
GPUMPI_FN static int gp_comm_unused(const gp_comm *c) { return !c->holds && !gp_self()->posted_head; }

GPUMPI_FN void gp_comm_hold(MPI_Comm comm) { gp_comm_at(comm)->holds++; }

GPUMPI_FN void gp_comm_unhold(MPI_Comm comm)
{
    gp_comm *c = gp_comm_at(comm);
    if (c->holds > 0) c->holds--;
    if (c->zombie && gp_comm_unused(c)) gp_comm_release(c);
}

/* The general cases of runtime.h's communicator lookups, which answer
 * MPI_COMM_WORLD inline. */
GPUMPI_FN int gp_comm_check_general(const char *fn, MPI_Comm comm)
{
    GP_TRY(gp_check_initialized(fn));
    if (gp_comm_find(comm)) return MPI_SUCCESS;
    if (comm == MPI_COMM_WORLD || comm == MPI_COMM_SELF) return gp_check_world(fn); /* sessions only */
    if (comm == MPI_COMM_NULL) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COMM, "the communicator is MPI_COMM_NULL");
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_COMM, "invalid communicator %d (never created, or freed)", (int)comm);
}

/* Whom point to point addresses: the remote group of an intercommunicator. */
GPUMPI_FN static const gp_ranks *gp_peers(const gp_comm *c) { return c->inter ? &c->remote : &c->ranks; }

GPUMPI_FN int gp_comm_is_inter(MPI_Comm comm)
{
    gp_comm *c = gp_comm_find(comm);
    return c && c->inter;
}

GPUMPI_FN MPI_Comm gp_comm_local_of(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD) return comm;
    gp_comm *c = gp_comm_at(comm);
    return c->inter ? c->local : comm;
}

GPUMPI_FN int gp_comm_p2p(const char *fn, MPI_Comm comm, int peer, int *size, int *peer_world, int *ctx)
{
    gp_comm *c = gp_flag(GP_RF_INIT | GP_RF_SESSION) ? gp_comm_find(comm) : 0;
    if (!c) return gp_comm_check_general(fn, comm); /* the error, or MPI_COMM_WORLD */
    const gp_ranks *peers = gp_peers(c);
    *size = peers->size;
    *peer_world = (unsigned)peer < (unsigned)peers->size ? gp_ranks_world(peers, peer) : peer;
    *ctx = c->ctx;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_subcomm_size(MPI_Comm comm) { return gp_comm_at(comm)->ranks.size; }
GPUMPI_FN int gp_subcomm_rank(MPI_Comm comm) { return gp_comm_at(comm)->rank; }
GPUMPI_FN int gp_subcomm_peer_size(MPI_Comm comm) { return gp_peers(gp_comm_at(comm))->size; }
GPUMPI_FN int gp_subcomm_to_world(MPI_Comm comm, int rank) { return gp_ranks_world(gp_peers(gp_comm_at(comm)), rank); }
GPUMPI_FN int gp_world_to_subcomm(MPI_Comm comm, int world_rank)
{
    return gp_ranks_find(gp_peers(gp_comm_at(comm)), world_rank);
}
GPUMPI_FN int gp_subcomm_ctx(MPI_Comm comm) { return gp_comm_at(comm)->ctx; }

/* Sharing the world's tree is safe for blocking collectives: all of the
 * world is in the call, and MPI already requires every rank to make its
 * blocking collectives in an order that cannot deadlock across
 * communicators. */
GPUMPI_FN int gp_comm_spans_world(MPI_Comm comm)
{
    if (comm == MPI_COMM_WORLD) return 1;
    gp_comm *c = gp_comm_find(comm);
    return c && !c->ranks.map && c->ranks.size == gp_hot.nranks && c->ranks.first == 0 &&
           (c->ranks.stride == 1 || c->ranks.size == 1);
}

GPUMPI_FN int gp_comm_is_world_range(MPI_Comm comm, int *first)
{
    if (comm == MPI_COMM_WORLD) {
        *first = 0;
        return 1;
    }
    const gp_ranks *r = &gp_comm_at(comm)->ranks;
    *first = r->first;
    return !r->map && (r->stride == 1 || r->size == 1);
}

GPUMPI_FN uint32_t gp_comm_next_coll_seq(MPI_Comm comm) { return gp_comm_at(comm)->coll_seq++; }

GPUMPI_FN void gp_comm_return_coll_seq(MPI_Comm comm) { gp_comm_at(comm)->coll_seq--; }

GPUMPI_FN MPI_Errhandler gp_comm_errhandler(MPI_Comm comm)
{
    if (!gp_self()->comm_state) return MPI_ERRORS_ARE_FATAL; /* before MPI_Init */
    return gp_comm_at(comm)->eh;
}

GPUMPI_FN int gp_ctx_alloc(const char *fn)
{
    uint32_t n = gp_fetch_add(gp_w()->ctx_counter, 1);
    /* a message carries its context in GP_CTX_BITS bits (gp_msg.ctx_flags) */
    if (GP_FIRST_CTX + 2 * (uint64_t)n + 1 >= (1u << GP_CTX_BITS))
        gp_fatal(fn, MPI_ERR_INTERN, "too many communicators made in this job (%u; context ids are not reused, at most %u)",
                 n + 1, ((1u << GP_CTX_BITS) - GP_FIRST_CTX) / 2);
    return GP_FIRST_CTX + 2 * (int)n;
}

GPUMPI_FN MPI_Comm gp_comm_new_handle(void)
{
    gp_comm_state *cs = gp_cs();
    int h = MPI_COMM_SELF + 1;
    while (h < cs->ncomms && (cs->comms[h].live || (cs->comms[h].zombie && !gp_comm_unused(&cs->comms[h])))) h++;
    if (h < cs->ncomms && cs->comms[h].zombie) gp_comm_release(&cs->comms[h]);
    if (h == cs->ncomms) {
        if (!gp_table_reserve((void **)&cs->comms, &cs->cap_comms, h + 1, sizeof(gp_comm)))
            gp_fatal("MPI_Comm_dup", MPI_ERR_NO_MEM, "no device heap left for %d communicators", h + 1);
        cs->ncomms++;
    }
    gp_memset(&cs->comms[h], 0, sizeof(gp_comm));
    cs->comms[h].live = 1;
    return h;
}

GPUMPI_FN MPI_Comm gp_comm_make(MPI_Comm parent, const gp_ranks *ranks, int my_rank, int ctx)
{
    return gp_comm_make_with(gp_comm_at(parent)->eh, ranks, my_rank, ctx);
}

GPUMPI_FN MPI_Comm gp_comm_make_with(MPI_Errhandler eh, const gp_ranks *ranks, int my_rank, int ctx)
{
    MPI_Comm h = gp_comm_new_handle(); /* may move the table */
    gp_comm *c = &gp_cs()->comms[h];
    c->ranks = *ranks;
    c->rank = my_rank;
    c->ctx = ctx;
    c->eh = eh;
    gp_errh_retain(eh);
    return h;
}

GPUMPI_FN __noinline__ int gp_comm_rank_call(MPI_Comm comm, int *rank)
{
    GP_TRY(gp_comm_check("MPI_Comm_rank", comm));
    *rank = gp_comm_rank(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN __noinline__ int gp_comm_size_call(MPI_Comm comm, int *size)
{
    GP_TRY(gp_comm_check("MPI_Comm_size", comm));
    *size = gp_comm_size(comm);
    return MPI_SUCCESS;
}

/* MPI_COMM_WORLD is answered with no call (local_inline.h). */
GPUMPI_FN int MPI_Comm_rank(MPI_Comm comm, int *rank) { return gp_comm_rank_inline(comm, rank); }

GPUMPI_FN int MPI_Comm_size(MPI_Comm comm, int *size) { return gp_comm_size_inline(comm, size); }

GPUMPI_FN int MPI_Comm_test_inter(MPI_Comm comm, int *flag)
{
    GP_TRY(gp_comm_check("MPI_Comm_test_inter", comm));
    *flag = gp_comm_is_inter(comm);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_compare(MPI_Comm comm1, MPI_Comm comm2, int *result)
{
    GP_TRY(gp_comm_check("MPI_Comm_compare", comm1));
    GP_TRY(gp_comm_check("MPI_Comm_compare", comm2));
    if (comm1 == comm2) {
        *result = MPI_IDENT;
        return MPI_SUCCESS;
    }
    int same = gp_ranks_compare(&gp_comm_at(comm1)->ranks, &gp_comm_at(comm2)->ranks);
    *result = same == MPI_IDENT ? MPI_CONGRUENT : same;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_group(MPI_Comm comm, MPI_Group *group)
{
    GP_TRY(gp_comm_check("MPI_Comm_group", comm));
    const gp_ranks *r = &gp_comm_at(comm)->ranks;
    gp_ranks_retain(r);
    *group = gp_group_make(r);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_set_name(MPI_Comm comm, const char *comm_name)
{
    GP_TRY(gp_comm_check("MPI_Comm_set_name", comm));
    if (!comm_name) return gp_err(comm, "MPI_Comm_set_name", MPI_ERR_ARG, "the name is NULL");
    size_t n = gp_strlen(comm_name);
    if (n > MPI_MAX_OBJECT_NAME - 1) n = MPI_MAX_OBJECT_NAME - 1; /* truncated, as the standard allows */
    char *name = (char *)gp_malloc(n + 1);
    if (!name) return gp_err(comm, "MPI_Comm_set_name", MPI_ERR_NO_MEM, "no device heap left for a %zu-byte name", n);
    gp_memcpy(name, comm_name, n);
    name[n] = 0;
    gp_comm *c = gp_comm_at(comm);
    gp_free(c->name);
    c->name = name;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_get_name(MPI_Comm comm, char *comm_name, int *resultlen)
{
    GP_TRY(gp_comm_check("MPI_Comm_get_name", comm));
    const char *name = gp_comm_at(comm)->name;
    if (!name) name = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "";
    int n = (int)gp_strlen(name);
    gp_memcpy(comm_name, name, (size_t)n + 1);
    *resultlen = n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_free(MPI_Comm *comm)
{
    if (!comm) return gp_err(MPI_COMM_WORLD, "MPI_Comm_free", MPI_ERR_ARG, "the communicator argument is NULL");
    GP_TRY(gp_comm_check("MPI_Comm_free", *comm));
    if (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF)
        return gp_err(*comm, "MPI_Comm_free", MPI_ERR_COMM, "cannot free %s",
                      *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF");
    int rc = gp_attrs_delete_all(GP_ATTR_COMM, *comm); /* the callbacks see the communicator still alive */
    if (rc != MPI_SUCCESS) return gp_err(*comm, "MPI_Comm_free", rc, "an attribute delete callback failed with %d", rc);
    gp_comm *c = gp_comm_at(*comm);
    gp_free(c->name);
    gp_free(c->topo);
    c->name = 0;
    c->topo = 0;
    gp_topo_release_graphs(c);
    gp_info_release(&c->info);
    MPI_Comm hidden = c->inter ? c->local : MPI_COMM_NULL;
    c->live = 0;
    /* receives posted on it complete normally: keep what they look up */
    c->zombie = 1;
    if (gp_comm_unused(c)) gp_comm_release(c);
    *comm = MPI_COMM_NULL;
    if (hidden != MPI_COMM_NULL) MPI_Comm_free(&hidden);
    return MPI_SUCCESS;
}
