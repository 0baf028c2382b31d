/* Internal interface of communicators, groups, topologies, error handlers
 * and attributes (comm.cu, comm_split.cu, rankmap.cu, group.cu, topo.cu,
 * errhandler.cu, attr.cu).
 *
 * Every handle is local to the calling rank: it indexes that rank's own
 * tables (gp_comm_state, hung off gp_self()->comm_state). What members of a
 * communicator share is its context id and, when its ranks are not a
 * regular progression of world ranks, one rank map. */
#ifndef GPUMPI_COMM_IMPL_H
#define GPUMPI_COMM_IMPL_H

#include "runtime.h"

/* An explicit list of world ranks, shared by every member of a
 * communicator (and by groups taken from it), freed by the last release. */
typedef struct gp_rankmap {
    uint32_t refs;
    int n;
    int64_t *by_world; /* (world rank << 32 | position), ascending: world -> position by binary search */
    int *world;        /* position -> world rank */
} gp_rankmap;

/* The ranks of a communicator or group: position i is world rank
 * first + i * stride, unless map is set. World, SELF, dups and regular
 * splits (parity, blocks, reversed blocks) need no map at all. */
typedef struct gp_ranks {
    int size;
    int first, stride;
    gp_rankmap *map;
} gp_ranks;

GPUMPI_FN int gp_ranks_world(const gp_ranks *r, int i);      /* position -> world rank */
GPUMPI_FN int gp_ranks_find(const gp_ranks *r, int world);   /* world rank -> position, MPI_UNDEFINED if absent */
GPUMPI_FN int gp_ranks_sorted(const gp_ranks *r, int i);     /* the i-th smallest world rank */
GPUMPI_FN void gp_ranks_retain(const gp_ranks *r);
GPUMPI_FN void gp_ranks_release(gp_ranks *r);
/* Ranks from a list of n distinct world ranks: implicit when they form a
 * progression, else a new map of this rank's own. MPI_ERR_RANK if a world
 * rank repeats, MPI_ERR_NO_MEM without heap. */
GPUMPI_FN int gp_ranks_from_list(gp_ranks *r, const int *world, int n);
/* MPI_IDENT (same ranks, same order), MPI_SIMILAR (same set) or MPI_UNEQUAL. */
GPUMPI_FN int gp_ranks_compare(const gp_ranks *a, const gp_ranks *b);
/* A map of n positions for the caller to fill (world[] and by_world[]). */
GPUMPI_FN gp_rankmap *gp_rankmap_new(int n, uint32_t refs);
GPUMPI_FN void gp_sort64(int64_t *a, int n);

/* A Cartesian topology: ndims, then dims[ndims], then periods[ndims]. */
typedef struct gp_topo {
    int ndims;
    int v[1]; /* dims then periods */
} gp_topo;
#define GP_TOPO_DIMS(t) ((t)->v)
#define GP_TOPO_PERIODS(t) ((t)->v + (t)->ndims)
GPUMPI_FN gp_topo *gp_topo_new(int ndims, const int *dims, const int *periods);

/* A graph topology (MPI_Graph_create): the whole graph, as every member
 * passed it; one copy shared by the members, freed by the last release. */
typedef struct gp_graph {
    uint32_t refs;
    int nnodes, nedges;
    int *index; /* nnodes entries, then edges[nedges] */
    int *edges;
} gp_graph;

/* A distributed graph topology: the calling rank's own neighbours only. */
typedef struct gp_dgraph {
    int indeg, outdeg, weighted;
    int *in, *inw, *out, *outw; /* one block: sources, their weights, destinations, theirs */
} gp_dgraph;

typedef struct gp_attr {
    int keyval;
    void *value;
    struct gp_attr *next;
} gp_attr;

typedef struct gp_comm {
    int live;
    int zombie;        /* freed while receives were pending: lookups still work */
    int holds;         /* nonblocking operations that still use it (gp_comm_hold) */
    int rank;          /* the calling rank's position */
    gp_ranks ranks;
    int ctx;           /* point-to-point context; ctx + 1 is the collective one */
    uint32_t coll_seq;
    MPI_Errhandler eh;
    char *name;        /* NULL: the default name */
    gp_topo *topo;     /* NULL: no topology */
    gp_attr *attrs;
    gp_graph *graph;   /* NULL: no graph topology (shared, counted) */
    gp_dgraph *dgraph; /* NULL: no distributed graph topology (this rank's) */
    MPI_Info info;     /* the hints set on it (a handle of this rank's), or MPI_INFO_NULL */
    int inter;         /* an intercommunicator (intercomm.cu): ranks is the local group */
    gp_ranks remote;   /* its remote group, which point to point addresses */
    MPI_Comm local;    /* its local group as a hidden intracommunicator, freed with it */
} gp_comm;

typedef struct gp_group {
    int live;
    int rank; /* the calling rank's position, or MPI_UNDEFINED */
    gp_ranks ranks;
} gp_group;

typedef struct gp_errh {
    uint32_t refs; /* 0: a free slot */
    int for_session; /* made by MPI_Session_create_errhandler: called with an MPI_Session * */
    MPI_Comm_errhandler_function *fn;
} gp_errh;

/* An MPI session (session.cu): what MPI_Session_init was asked for. */
typedef struct gp_session {
    int live;
    int thread_level;
    MPI_Errhandler eh;
} gp_session;

typedef struct gp_keyval {
    int refs; /* the handle (until freed) and every attribute using it; 0: a free slot */
    int kind; /* GP_ATTR_COMM or GP_ATTR_TYPE: what its attributes hang on */
    int handle_freed;
    MPI_Comm_copy_attr_function *copy_fn;
    MPI_Comm_delete_attr_function *delete_fn;
    void *extra;
} gp_keyval;

/* An Info object: keys and values in the order they were first set. */
typedef struct gp_info {
    int live;
    int n, cap;
    char **keys, **vals;
} gp_info;

/* An error class or code the program added (MPI_Add_error_class/code). */
typedef struct gp_ecode {
    int cls;    /* its class: itself for a class */
    char *text; /* MPI_Add_error_string, or NULL */
} gp_ecode;

/* Handle bases: below them are the predefined handles. */
#define GP_GROUP_BASE 2   /* MPI_GROUP_NULL, MPI_GROUP_EMPTY */
#define GP_ERRH_BASE 3    /* MPI_ERRHANDLER_NULL, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN */
#define GP_KEYVAL_BASE 16 /* MPI_KEYVAL_INVALID and the predefined keys */
#define GP_INFO_BASE 1    /* MPI_INFO_NULL; MPI_INFO_ENV is the table's first entry */
#define GP_SESSION_BASE 1 /* MPI_SESSION_NULL */
#define GP_FIRST_CTX 6    /* contexts 2, 3 are MPI_COMM_WORLD's (GP_WORLD_CTX, runtime.h), 4, 5 MPI_COMM_SELF's */

typedef struct gp_comm_state {
    gp_comm *comms; /* handle = index; 0 is MPI_COMM_NULL */
    int ncomms, cap_comms;
    gp_group *groups; /* handle = GP_GROUP_BASE + index */
    int ngroups, cap_groups;
    gp_errh *errhs; /* handle = GP_ERRH_BASE + index */
    int nerrhs, cap_errhs;
    gp_keyval *keyvals; /* handle = GP_KEYVAL_BASE + index */
    int nkeyvals, cap_keyvals;
    gp_info *infos; /* handle = GP_INFO_BASE + index; index 0 is MPI_INFO_ENV */
    int ninfos, cap_infos;
    gp_ecode *ecodes; /* code = MPI_ERR_LASTCODE + 1 + index */
    int necodes, cap_ecodes;
    gp_session *sessions; /* handle = GP_SESSION_BASE + index */
    int nsessions, cap_sessions;
    int open_sessions; /* live ones: GP_RF_SESSION while > 0 */
    int thread_level;
    int attr_values[MPI_LASTUSEDCODE + 1]; /* the predefined attributes' values, by key */
} gp_comm_state;

/* The calling rank's tables, made on first use with MPI_COMM_WORLD and
 * MPI_COMM_SELF in them. */
GPUMPI_FN gp_comm_state *gp_cs(void);
/* The live communicator behind a handle, or NULL. */
GPUMPI_FN static inline gp_comm *gp_comm_find(MPI_Comm c)
{
    gp_comm_state *cs = gp_cs();
    return c > 0 && c < cs->ncomms && cs->comms[c].live ? &cs->comms[c] : 0;
}
/* A new handle in the calling rank's table, its entry zeroed and live. */
GPUMPI_FN MPI_Comm gp_comm_new_handle(void);
/* Fills a new communicator made from parent (collectively agreed ranks and
 * context): errors handler inherited, no name, topology or attributes. */
GPUMPI_FN MPI_Comm gp_comm_make(MPI_Comm parent, const gp_ranks *ranks, int my_rank, int ctx);
/* The same with error handler eh (retained here): no parent to inherit from. */
GPUMPI_FN MPI_Comm gp_comm_make_with(MPI_Errhandler eh, const gp_ranks *ranks, int my_rank, int ctx);
/* A fresh context pair, unique in the job: call on one member only. */
GPUMPI_FN int gp_ctx_alloc(const char *fn);
/* Splits parent as MPI_Comm_split does (every member calls it); *out is
 * MPI_COMM_NULL for color MPI_UNDEFINED. */
GPUMPI_FN int gp_comm_split(const char *fn, MPI_Comm parent, int color, int key, MPI_Comm *out);
/* MPI_Comm_dup (comm_split.cu): hints from the parent, or info's if with_info. */
GPUMPI_FN int gp_comm_dup(const char *fn, MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm);
/* Its two halves around agreeing on the context (MPI_Comm_idup agrees on it
 * later): the checks and the new communicator's hints, then the
 * communicator in context ctx (hints taken over). */
GPUMPI_FN int gp_comm_dup_hints(const char *fn, MPI_Comm comm, int with_info, MPI_Info info, MPI_Comm *newcomm,
                                MPI_Info *hints);
/* An intercommunicator's dup has two contexts: local_ctx is its hidden
 * local communicator's (unused for an intracommunicator). */
GPUMPI_FN int gp_comm_dup_as(const char *fn, MPI_Comm comm, MPI_Info hints, int ctx, int local_ctx,
                             MPI_Comm *newcomm);

/* Intercommunicators (intercomm.cu): MPI_Comm_dup and MPI_Comm_split (and
 * create, a split) of one; collective over both groups. A dup agrees on
 * its context pair (ctx[0]: allocated by the group of which
 * gp_intercomm_allocates is true) and its hidden local communicator's
 * context (ctx[1], each group its own), blocking here and nonblocking in
 * MPI_Comm_idup (comm_idup.cu); gp_intercomm_dup_as makes the dup's
 * handle, with no hints or attributes. */
GPUMPI_FN int gp_intercomm_allocates(MPI_Comm ic);
GPUMPI_FN void gp_intercomm_dup_agree(const char *fn, MPI_Comm comm, int ctx[2]);
GPUMPI_FN MPI_Comm gp_intercomm_dup_as(MPI_Comm comm, int ctx, int local_ctx);
GPUMPI_FN int gp_intercomm_split(const char *fn, MPI_Comm comm, int color, int key, MPI_Comm *newcomm);

/* Groups (group.cu). */
GPUMPI_FN gp_group *gp_group_find(MPI_Group g);
GPUMPI_FN int gp_group_check(const char *fn, MPI_Group g);
/* A new group handle owning ranks (already retained or private). */
GPUMPI_FN MPI_Group gp_group_make(const gp_ranks *ranks);

/* Error handlers (errhandler.cu): handle reference counts; valid: a
 * predefined handler, or a live one made for communicators (for_session
 * 0) or sessions (1). */
GPUMPI_FN void gp_errh_retain(MPI_Errhandler eh);
GPUMPI_FN void gp_errh_release(MPI_Errhandler eh);
GPUMPI_FN int gp_errh_valid_for(MPI_Errhandler eh, int for_session);
GPUMPI_FN int gp_errh_create(const char *fn, MPI_Comm_errhandler_function *f, int for_session, MPI_Errhandler *out);

/* Agreeing on a new context among a group's members alone, with no parent
 * communicator (comm_split.cu): MPI_Comm_create_group's and
 * MPI_Comm_create_from_group's. ranks are the group's, me the caller's
 * position in it; tag tells concurrent calls apart and check (0, or a
 * string tag's hash) must be the same at every member. */
#define GP_CTX_CREATE_GROUP 1 /* the context of their messages, which no communicator uses */
GPUMPI_FN int gp_group_agree_ctx(const char *fn, const gp_ranks *ranks, int me, int tag, uint64_t check);
/* A string tag's 64-bit hash (FNV-1a) and a message tag drawn from its
 * bits (part 0 or 1), below -1: MPI_Comm_create_group's are >= 0. */
GPUMPI_FN uint64_t gp_stringtag_hash(const char *s);
GPUMPI_FN static inline int gp_stringtag_tag(uint64_t h, int part)
{
    return -2 - (int)((h >> (30 * part)) & 0x3fffffff);
}
/* MPI_Comm_create_from_group's checks (comm_from_group.cu), shared with
 * MPI_Intercomm_create_from_groups: the error handler argument (raising on
 * the world), then the group (what: "", "local ") and string tag (raising
 * on eh); the hints of info onto the new communicator h. */
GPUMPI_FN int gp_from_group_errh_check(const char *fn, MPI_Errhandler eh);
GPUMPI_FN int gp_from_group_check(const char *fn, MPI_Group group, const char *what, const char *stringtag,
                                  MPI_Errhandler eh);
GPUMPI_FN int gp_from_group_hints(const char *fn, MPI_Comm h, MPI_Info info);

/* Attributes (attr.cu), on an object of a kind (GP_ATTR_COMM: obj is a
 * communicator, GP_ATTR_TYPE: a datatype) the caller has checked: copies
 * obj's attributes to newobj through their copy callbacks (MPI_Comm_dup,
 * MPI_Type_dup); deletes all of obj's (MPI_Comm_free, MPI_Type_free).
 * Both answer the first callback's failure code. The rest are the
 * MPI_*_keyval and MPI_*_attr calls of every kind, fn naming the call. */
#define GP_ATTR_COMM 1
#define GP_ATTR_TYPE 2
GPUMPI_FN int gp_attrs_copy(int kind, int obj, int newobj);
GPUMPI_FN int gp_attrs_delete_all(int kind, int obj);
GPUMPI_FN int gp_keyval_create(const char *fn, int kind, MPI_Comm_copy_attr_function *copy_fn,
                               MPI_Comm_delete_attr_function *delete_fn, int *keyval, void *extra_state);
GPUMPI_FN int gp_keyval_free(const char *fn, int kind, int *keyval);
GPUMPI_FN int gp_attr_set(const char *fn, int kind, int obj, int keyval, void *value);
GPUMPI_FN int gp_attr_get(const char *fn, int kind, int obj, int keyval, void *value, int *flag);
GPUMPI_FN int gp_attr_delete(const char *fn, int kind, int obj, int keyval);

/* Topologies (topo_graph.cu): what a communicator's graph topology holds
 * is copied by MPI_Comm_dup and released by MPI_Comm_free. */
GPUMPI_FN void gp_topo_copy_graphs(const gp_comm *from, gp_comm *to);
GPUMPI_FN void gp_topo_release_graphs(gp_comm *c);

/* Info (info.cu): a new handle holding a copy of info (MPI_INFO_NULL: an
 * empty one); frees a handle made so. */
GPUMPI_FN int gp_info_copy(const char *fn, MPI_Info info, MPI_Info *out);
/* The same with only the communicator hints gpumpi takes (info.cu says which). */
GPUMPI_FN int gp_info_copy_comm_hints(const char *fn, MPI_Info info, MPI_Info *out);
GPUMPI_FN void gp_info_release(MPI_Info *info);
/* Attributes at MPI_Finalize: MPI_COMM_SELF's deleted in the reverse order
 * they were set, then MPI_COMM_WORLD's (attr.cu). */
GPUMPI_FN int gp_attrs_finalize(void);
/* The class of an added code and its text (errclass.cu): 1 if code was
 * added by the program, else 0. */
GPUMPI_FN int gp_added_error(int code, int *cls, const char **text);

/* Grows a table of elem-byte entries so that it holds need; 0 without heap.
 * The tables are the calling rank's own: in its local memory while they
 * fit (gp_tables_malloc). */
GPUMPI_FN int gp_table_reserve(void **table, int *cap, int need, size_t elem);

#endif
