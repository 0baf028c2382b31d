/* Making datatype objects (types_build.cu), for the constructors. Each
 * returns a new object holding one reference (the caller's). */
#ifndef GPUMPI_TYPES_BUILD_H
#define GPUMPI_TYPES_BUILD_H

#include "datatype.h"

typedef struct gp_tbuild { /* a program being built */
    gp_tent *e;
    int n, cap;
} gp_tbuild;

typedef struct gp_tacc { /* bounds, size and basic type of the blocks so far */
    int any, tany, seen, mixed, align, sticky;
    int has_lb[2], has_ub[2];  /* [0]: the data's bounds, [1]: explicit ones (gp_tobj.sticky) */
    MPI_Aint lb_of[2], ub_of[2];
    MPI_Aint tlb, tub, size;
    MPI_Count nelems;
    MPI_Datatype basic;
} gp_tacc;

/* An array argument of a constructor as either binding passes it: int (or
 * MPI_Aint) in the classic one, MPI_Count in the large-count (_c) one; all
 * NULL for an absent array. */
typedef struct gp_ivec {
    const int *i;
    const MPI_Aint *a;
    const MPI_Count *c;
} gp_ivec;
GPUMPI_FN static inline MPI_Count gp_iv(gp_ivec v, int k) { return v.c ? v.c[k] : v.a ? (MPI_Count)v.a[k] : v.i[k]; }
GPUMPI_FN static inline int gp_iv_set(gp_ivec v) { return v.i || v.a || v.c; }

GPUMPI_FN gp_tobj *gp_tobj_new(int kind);
/* Appends count elements of child at off + k * stride. */
GPUMPI_FN void gp_tb_run(gp_tbuild *b, MPI_Aint off, MPI_Aint count, MPI_Aint stride, const gp_tobj *child);
GPUMPI_FN void gp_tacc_init(gp_tacc *a, const gp_tobj *old);
GPUMPI_FN void gp_tacc_add(gp_tacc *a, MPI_Aint lo, MPI_Aint hi, const gp_tobj *child, MPI_Aint copies);
GPUMPI_FN void gp_tacc_block(gp_tacc *a, MPI_Aint off, MPI_Aint n, const gp_tobj *child);
GPUMPI_FN void gp_tobj_finish(gp_tobj *o, const gp_tacc *a, gp_tbuild *b);
GPUMPI_FN void gp_tobj_set_program(gp_tobj *o, gp_tbuild *b);

GPUMPI_FN gp_tobj *gp_make_contig(MPI_Aint count, const gp_tobj *old);
GPUMPI_FN gp_tobj *gp_make_hvector(MPI_Aint count, MPI_Aint bl, MPI_Aint stride, const gp_tobj *old);
/* indexed, hindexed, indexed_block, hindexed_block (old, no types) and
 * struct (types): block i is bls[i] (or bl, when bls is absent) elements
 * at disp[i] extents (in_extents) or bytes */
GPUMPI_FN gp_tobj *gp_make_blocks(int kind, int count, gp_ivec bls, MPI_Aint bl, gp_ivec disp, int in_extents,
                                  const gp_tobj *old, const MPI_Datatype *types);
GPUMPI_FN gp_tobj *gp_make_resized(int kind, const gp_tobj *old, MPI_Aint lb, MPI_Aint extent);

#endif
