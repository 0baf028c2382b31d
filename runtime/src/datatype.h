/* Datatype objects, shared by the types_*.cu files, reduce_ops.cu and
 * ops_user.cu.
 *
 * Every datatype, predefined or derived, is a gp_tobj. Predefined ones are
 * a constant table indexed by the handle (shared by all ranks, never
 * changed). Derived ones belong to the rank that made them: handle
 * GP_FIRST_DERIVED + i is slot i of the calling rank's table
 * (gp_self()->type_state).
 *
 * A type is kept in two forms, both proportional to its description:
 *  - its program: the steps that pack one element, in type-map order. A
 *    step is `count` blocks at off + k * stride (k < count), each block
 *    either a contiguous run of `len` bytes (a leaf) or one element of a
 *    child type (a nest). Built when the type is made: adjacent runs are
 *    merged, evenly spaced runs become one strided step, children that are
 *    one run are folded in, so a vector of doubles is one step and a dense
 *    struct one run.
 *  - its description: for each block of the constructor, the number of
 *    copies and the child type. MPI_Get_elements walks it to count the
 *    basic elements of a partial element (runs merged across different
 *    basic types no longer say where each element ends).
 * A type holds a reference on every type its description or program
 * names, so freeing a handle never breaks the types built from it. */
#ifndef GPUMPI_DATATYPE_H
#define GPUMPI_DATATYPE_H

#include "runtime.h"

#define GP_FIRST_DERIVED 1024
#define GP_NUM_PREDEF GPUMPI_NUM_BASIC_TYPES
#define GP_INLINE_ENTS 2    /* steps stored in the object itself */
#define GP_INLINE_CHILD 16  /* a single copy of a child of at most this many steps is inlined */
#define GP_MAX_NEST 16      /* program levels (nest steps within nest steps) a type may have */

/* MPI_LONG_DOUBLE and its pair and complex types describe gp_ldouble
 * (gpumpi/platform.h): a double on the GPU, x87's 16 bytes on the threads
 * backend. */
#if defined(GPUMPI_CUDA)
#define GP_LDBL_SIZE 8
#define GP_LDBL_ALIGN 8
#define GP_LDBL_INT_EXTENT 16
#else
#define GP_LDBL_SIZE 16
#define GP_LDBL_ALIGN 16
#define GP_LDBL_INT_EXTENT 32
#endif

typedef struct gp_tobj gp_tobj;

/* Bounds set explicitly (gp_tobj.sticky). MPI-1's MPI_LB and MPI_UB
 * markers: a type's lb is its lowest lb marker if it has one, else its
 * data's; the same for ub; markers carry into the types built on top. A
 * marker itself has no bound of the other kind (GP_NO_*); a type made of
 * markers of one kind only has 0 for the other bound. A resized type
 * (GP_RESIZED) has its bounds, but in a struct they combine with the
 * others' like any bounds (MPICH does the same): it only stops the
 * struct's alignment padding, as any explicit bound does. */
#define GP_STICKY_LB 1
#define GP_STICKY_UB 2
#define GP_NO_LB 4
#define GP_NO_UB 8
#define GP_RESIZED 16

/* How a derived type was made, for MPI_Type_get_envelope and
 * MPI_Type_get_contents: the constructor's arguments as the standard
 * lists them. It holds a reference on each type it names. */
typedef struct gp_tenv {
    int combiner;
    int ni, na, nc, nd;
    int *ints;
    MPI_Aint *aints;
    MPI_Count *counts;     /* a large-count (_c) constructor's counts and displacements */
    const gp_tobj **types;
} gp_tenv;

typedef struct gp_tent {
    MPI_Aint off;          /* the first block, from the element's origin */
    MPI_Aint stride;       /* between blocks (0 when count is 1) */
    MPI_Aint count;        /* blocks, >= 1 */
    MPI_Aint len;          /* leaf: bytes per block; nest: child->size */
    const gp_tobj *child;  /* NULL for a leaf */
} gp_tent;

enum gp_tkind {
    GP_TK_PREDEF, GP_TK_CONTIG, GP_TK_VECTOR, GP_TK_INDEXED, GP_TK_STRUCT, GP_TK_RESIZED, GP_TK_DUP,
};

struct gp_tobj {
    int refs;              /* handles and parents holding it; < 0: predefined */
    int committed;
    int kind;              /* gp_tkind */
    MPI_Datatype basic;    /* the one basic type a reduction sees, or MPI_DATATYPE_NULL */
    int align;             /* largest alignment of its basic types (struct padding) */
    int sticky;            /* GP_STICKY_* bits: bounds set explicitly somewhere inside (no struct padding) */
    MPI_Aint size;         /* packed bytes */
    MPI_Aint lb, ub;       /* extent = ub - lb */
    MPI_Aint true_lb, true_ub;
    MPI_Count nelems;      /* basic elements (a pair type counts 2) */
    int run;               /* one element's data is size bytes at run_off */
    int dense;             /* run, and extent == size: any count is one run */
    MPI_Aint run_off;
    int nent;              /* program steps */
    gp_tent ents[GP_INLINE_ENTS];
    gp_tent *more;         /* the steps when nent > GP_INLINE_ENTS */
    /* description, for the element walk: nblocks blocks, block b being
     * blocklens[b] (or bl1) elements of children[b] (or child1) */
    int nblocks;           /* 0 for a predefined type */
    MPI_Aint bl1;
    MPI_Aint *blocklens;
    const gp_tobj *child1;
    const gp_tobj **children;
    const gp_tobj *aux;    /* an internal type the program names (a vector's block) */
    char *name;
    gp_tenv *env;          /* NULL: predefined */
    int depth;             /* nest levels of the program below this one (0: only runs) */
    gp_tobj *next_dead;    /* being freed (gp_tobj_unref) */
};

GPUMPI_FN static inline const gp_tent *gp_prog(const gp_tobj *t) { return t->nent <= GP_INLINE_ENTS ? t->ents : t->more; }
GPUMPI_FN static inline MPI_Aint gp_ext(const gp_tobj *t) { return t->ub - t->lb; }

/* A rank's derived types and user operations. */
typedef struct gp_tslot {
    gp_tobj *obj;          /* NULL: free */
    int holds;             /* pending operations using the handle (gp_type_hold) */
    int freed;             /* MPI_Type_free called: no longer the user's, kept while held */
    int next_free;         /* free list: slot index + 1, 0 at the end */
    struct gp_attr *attrs; /* the handle's attributes (MPI_Type_set_attr), not the object's */
} gp_tslot;
typedef struct gp_uop {
    MPI_User_function *fn; /* NULL: free; an MPI_User_function_c when large */
    int large;             /* made by MPI_Op_create_c: fn takes an MPI_Count length */
    int commute;
    int next_free;
    int holds;             /* pending nonblocking reductions using it */
    int freed;             /* MPI_Op_free'd while held: the slot waits for the last */
} gp_uop;
typedef struct gp_type_state {
    gp_tslot *slots;
    int nslots, cap_slots, free_slot;
    gp_uop *ops;
    int nops, cap_ops, free_op;
    struct gp_attr **predef_attrs; /* GP_NUM_PREDEF lists, made on first use: the constant table cannot hold them */
    char **predef_names;           /* GP_NUM_PREDEF names MPI_Type_set_name gave, made on first use */
} gp_type_state;

#define GP_FIRST_USER_OP 64

GPUMPI_FN gp_type_state *gp_types(void); /* the calling rank's, made on first use */
/* The object behind a handle, predefined or derived (also one the user
 * freed while an operation still holds it); NULL if none. */
GPUMPI_FN const gp_tobj *gp_tobj_of(MPI_Datatype t);
/* Checks a handle the user passes to a constructor or query: a live type
 * (committed or not). Raises MPI_ERR_TYPE on MPI_COMM_WORLD. */
GPUMPI_FN int gp_type_valid(const char *fn, MPI_Datatype t, const gp_tobj **obj);
/* A new handle for o (which the handle then owns). */
GPUMPI_FN int gp_type_new_handle(const char *fn, gp_tobj *o, MPI_Datatype *newtype);
GPUMPI_FN void gp_tobj_ref(const gp_tobj *o);
GPUMPI_FN void gp_tobj_unref(const gp_tobj *o);
/* Where a live handle's attributes are (attr.cu walks them). */
GPUMPI_FN struct gp_attr **gp_type_attr_list(MPI_Datatype t);
/* The name of a predefined type: 1 and the name, or 0. */
GPUMPI_FN int gp_predef_name(MPI_Datatype t, const char **name);

/* The handle of a predefined type's object (types_basic.cu). */
GPUMPI_FN MPI_Datatype gp_predef_handle(const gp_tobj *o);
/* Records how o was made (types_envelope.cu): the caller fills ints and
 * aints, and names the types with gp_env_type. */
GPUMPI_FN gp_tenv *gp_env_new(gp_tobj *o, int combiner, int ni, int na, int nd);
/* The same with nc large counts: a _c constructor's record (MPI-4.0 puts
 * its counts and displacements there, not in the integers). */
GPUMPI_FN gp_tenv *gp_env_new_c(gp_tobj *o, int combiner, int ni, int na, int nc, int nd);
GPUMPI_FN void gp_env_type(gp_tenv *e, int k, MPI_Datatype t);

/* User operations (ops_user.cu): gp_reduce_apply for a user op handle. */
GPUMPI_FN int gp_user_op_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count);
GPUMPI_FN int gp_user_op_commutative(MPI_Op op); /* -1 if op is not a live user op */

#endif
