/* Datatype handles: the predefined types, the calling rank's table of
 * derived ones, and the queries the send and receive paths make on every
 * message (size, contiguity), which answer predefined types from the
 * constant table without touching the rank's state. */
#include "datatype.h"
#include "comm_impl.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

/* One basic type: size bytes, dense, its own basic type. */
#define GP_BASIC(h, sz, al)                                                                                    \
    {-1, 1, GP_TK_PREDEF, h, al, 0, (MPI_Aint)(sz), 0, (MPI_Aint)(sz), 0, (MPI_Aint)(sz), 1, 1, 1, 0, 1,      \
     {{0, 0, 1, (MPI_Aint)(sz), 0}, {0, 0, 0, 0, 0}}}
/* A value-index pair {T v; int i;}: vs value bytes, the index right after
 * them (one run of vs + 4 bytes, padded to ext). */
#define GP_PAIR(h, vs, ext, al)                                                                                \
    {-1, 1, GP_TK_PREDEF, h, al, 0, (MPI_Aint)(vs) + 4, 0, (MPI_Aint)(ext), 0, (MPI_Aint)(vs) + 4, 2, 1,      \
     (MPI_Aint)(vs) + 4 == (MPI_Aint)(ext), 0, 1, {{0, 0, 1, (MPI_Aint)(vs) + 4, 0}, {0, 0, 0, 0, 0}}}

/* The basic types, in handle order (handle, size, alignment): every one is
 * dense, so its size alone answers the message path (runtime.h). */
#define GP_BASIC_TYPES(X) \
    X(MPI_CHAR, 1, 1) \
    X(MPI_SIGNED_CHAR, 1, 1) \
    X(MPI_UNSIGNED_CHAR, 1, 1) \
    X(MPI_BYTE, 1, 1) \
    X(MPI_SHORT, 2, 2) \
    X(MPI_UNSIGNED_SHORT, 2, 2) \
    X(MPI_INT, 4, 4) \
    X(MPI_UNSIGNED, 4, 4) \
    X(MPI_LONG, sizeof(long), sizeof(long)) \
    X(MPI_UNSIGNED_LONG, sizeof(long), sizeof(long)) \
    X(MPI_LONG_LONG_INT, 8, 8) \
    X(MPI_UNSIGNED_LONG_LONG, 8, 8) \
    X(MPI_FLOAT, 4, 4) \
    X(MPI_DOUBLE, 8, 8) \
    X(MPI_LONG_DOUBLE, GP_LDBL_SIZE, GP_LDBL_ALIGN) \
    X(MPI_INT8_T, 1, 1) \
    X(MPI_INT16_T, 2, 2) \
    X(MPI_INT32_T, 4, 4) \
    X(MPI_INT64_T, 8, 8) \
    X(MPI_UINT8_T, 1, 1) \
    X(MPI_UINT16_T, 2, 2) \
    X(MPI_UINT32_T, 4, 4) \
    X(MPI_UINT64_T, 8, 8) \
    X(MPI_C_BOOL, 1, 1) \
    X(MPI_WCHAR, sizeof(wchar_t), sizeof(wchar_t)) \
    X(MPI_PACKED, 1, 1) \
    X(MPI_AINT, sizeof(MPI_Aint), sizeof(MPI_Aint)) \
    X(MPI_OFFSET, sizeof(MPI_Offset), sizeof(MPI_Offset)) \
    X(MPI_COUNT, sizeof(MPI_Count), sizeof(MPI_Count)) \
    X(MPI_C_FLOAT_COMPLEX, 8, 4) \
    X(MPI_C_DOUBLE_COMPLEX, 16, 8) \
    X(MPI_C_LONG_DOUBLE_COMPLEX, 2 * GP_LDBL_SIZE, GP_LDBL_ALIGN)
/* The Fortran and C++ types, after the pairs (handle order): dense, each
 * its own basic type. */
#define GP_FORTRAN_CXX_TYPES(X) \
    X(MPI_CHARACTER, 1, 1) \
    X(MPI_LOGICAL, 4, 4) \
    X(MPI_INTEGER, 4, 4) \
    X(MPI_REAL, 4, 4) \
    X(MPI_DOUBLE_PRECISION, 8, 8) \
    X(MPI_COMPLEX, 8, 4) \
    X(MPI_DOUBLE_COMPLEX, 16, 8) \
    X(MPI_INTEGER1, 1, 1) \
    X(MPI_INTEGER2, 2, 2) \
    X(MPI_INTEGER4, 4, 4) \
    X(MPI_INTEGER8, 8, 8) \
    X(MPI_REAL4, 4, 4) \
    X(MPI_REAL8, 8, 8) \
    X(MPI_COMPLEX8, 8, 4) \
    X(MPI_COMPLEX16, 16, 8)
#define GP_CXX_TYPES(X) \
    X(MPI_CXX_BOOL, 1, 1) \
    X(MPI_CXX_FLOAT_COMPLEX, 8, 4) \
    X(MPI_CXX_DOUBLE_COMPLEX, 16, 8) \
    X(MPI_CXX_LONG_DOUBLE_COMPLEX, 2 * GP_LDBL_SIZE, GP_LDBL_ALIGN)
/* Fortran's pairs for MAXLOC and MINLOC: two values of one type, dense. */
#define GP_TWIN(h, vs) GP_BASIC(h, 2 * (vs), vs)
/* MPI_LB, MPI_UB: no data, only an explicit bound (datatype.h). */
#define GP_MARKER(bits)                                                                                        \
    {-1, 1, GP_TK_PREDEF, MPI_DATATYPE_NULL, 1, bits, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}}
#define GP_BASIC_ENTRY(h, sz, al) GP_BASIC(h, sz, al),
#define GP_BASIC_SIZE(h, sz, al) (uint8_t)(sz),

GPUMPI_CONST_VAR const uint8_t gp_basic_size[MPI_FLOAT_INT] = {0, GP_BASIC_TYPES(GP_BASIC_SIZE)};

GPUMPI_VAR static const gp_tobj gp_predef[GP_NUM_PREDEF] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, {{0, 0, 0, 0, 0}, {0, 0, 0, 0, 0}}}, /* MPI_DATATYPE_NULL */
    GP_BASIC_TYPES(GP_BASIC_ENTRY)
    GP_PAIR(MPI_FLOAT_INT, 4, 8, 4),
    GP_PAIR(MPI_DOUBLE_INT, 8, 16, 8),
    GP_PAIR(MPI_LONG_INT, sizeof(long), 2 * sizeof(long), sizeof(long)),
    GP_PAIR(MPI_2INT, 4, 8, 4),
    /* {short v; int i;}: two runs, the index 4 bytes in */
    {-1, 1, GP_TK_PREDEF, MPI_SHORT_INT, 4, 0, 6, 0, 8, 0, 8, 2, 0, 0, 0, 2, {{0, 0, 1, 2, 0}, {4, 0, 1, 4, 0}}},
    GP_PAIR(MPI_LONG_DOUBLE_INT, GP_LDBL_SIZE, GP_LDBL_INT_EXTENT, GP_LDBL_ALIGN),
    GP_MARKER(GP_STICKY_LB | GP_NO_UB), /* MPI_LB */
    GP_MARKER(GP_STICKY_UB | GP_NO_LB), /* MPI_UB */
    GP_FORTRAN_CXX_TYPES(GP_BASIC_ENTRY)
    GP_TWIN(MPI_2INTEGER, 4),
    GP_TWIN(MPI_2REAL, 4),
    GP_TWIN(MPI_2DOUBLE_PRECISION, 8),
    GP_CXX_TYPES(GP_BASIC_ENTRY)
};

GPUMPI_FN int gp_predef_name(MPI_Datatype t, const char **name)
{
    switch (t) {
    case MPI_CHAR: *name = "MPI_CHAR"; break;
    case MPI_SIGNED_CHAR: *name = "MPI_SIGNED_CHAR"; break;
    case MPI_UNSIGNED_CHAR: *name = "MPI_UNSIGNED_CHAR"; break;
    case MPI_BYTE: *name = "MPI_BYTE"; break;
    case MPI_SHORT: *name = "MPI_SHORT"; break;
    case MPI_UNSIGNED_SHORT: *name = "MPI_UNSIGNED_SHORT"; break;
    case MPI_INT: *name = "MPI_INT"; break;
    case MPI_UNSIGNED: *name = "MPI_UNSIGNED"; break;
    case MPI_LONG: *name = "MPI_LONG"; break;
    case MPI_UNSIGNED_LONG: *name = "MPI_UNSIGNED_LONG"; break;
    case MPI_LONG_LONG_INT: *name = "MPI_LONG_LONG_INT"; break;
    case MPI_UNSIGNED_LONG_LONG: *name = "MPI_UNSIGNED_LONG_LONG"; break;
    case MPI_FLOAT: *name = "MPI_FLOAT"; break;
    case MPI_DOUBLE: *name = "MPI_DOUBLE"; break;
    case MPI_LONG_DOUBLE: *name = "MPI_LONG_DOUBLE"; break;
    case MPI_INT8_T: *name = "MPI_INT8_T"; break;
    case MPI_INT16_T: *name = "MPI_INT16_T"; break;
    case MPI_INT32_T: *name = "MPI_INT32_T"; break;
    case MPI_INT64_T: *name = "MPI_INT64_T"; break;
    case MPI_UINT8_T: *name = "MPI_UINT8_T"; break;
    case MPI_UINT16_T: *name = "MPI_UINT16_T"; break;
    case MPI_UINT32_T: *name = "MPI_UINT32_T"; break;
    case MPI_UINT64_T: *name = "MPI_UINT64_T"; break;
    case MPI_C_BOOL: *name = "MPI_C_BOOL"; break;
    case MPI_WCHAR: *name = "MPI_WCHAR"; break;
    case MPI_PACKED: *name = "MPI_PACKED"; break;
    case MPI_AINT: *name = "MPI_AINT"; break;
    case MPI_OFFSET: *name = "MPI_OFFSET"; break;
    case MPI_COUNT: *name = "MPI_COUNT"; break;
    case MPI_C_FLOAT_COMPLEX: *name = "MPI_C_COMPLEX"; break; /* its first name (MPICH's choice too) */
    case MPI_C_DOUBLE_COMPLEX: *name = "MPI_C_DOUBLE_COMPLEX"; break;
    case MPI_C_LONG_DOUBLE_COMPLEX: *name = "MPI_C_LONG_DOUBLE_COMPLEX"; break;
    case MPI_FLOAT_INT: *name = "MPI_FLOAT_INT"; break;
    case MPI_DOUBLE_INT: *name = "MPI_DOUBLE_INT"; break;
    case MPI_LONG_INT: *name = "MPI_LONG_INT"; break;
    case MPI_2INT: *name = "MPI_2INT"; break;
    case MPI_SHORT_INT: *name = "MPI_SHORT_INT"; break;
    case MPI_LONG_DOUBLE_INT: *name = "MPI_LONG_DOUBLE_INT"; break;
    case MPI_LB: *name = "MPI_LB"; break;
    case MPI_UB: *name = "MPI_UB"; break;
    case MPI_CHARACTER: *name = "MPI_CHARACTER"; break;
    case MPI_LOGICAL: *name = "MPI_LOGICAL"; break;
    case MPI_INTEGER: *name = "MPI_INTEGER"; break;
    case MPI_REAL: *name = "MPI_REAL"; break;
    case MPI_DOUBLE_PRECISION: *name = "MPI_DOUBLE_PRECISION"; break;
    case MPI_COMPLEX: *name = "MPI_COMPLEX"; break;
    case MPI_DOUBLE_COMPLEX: *name = "MPI_DOUBLE_COMPLEX"; break;
    case MPI_INTEGER1: *name = "MPI_INTEGER1"; break;
    case MPI_INTEGER2: *name = "MPI_INTEGER2"; break;
    case MPI_INTEGER4: *name = "MPI_INTEGER4"; break;
    case MPI_INTEGER8: *name = "MPI_INTEGER8"; break;
    case MPI_REAL4: *name = "MPI_REAL4"; break;
    case MPI_REAL8: *name = "MPI_REAL8"; break;
    case MPI_COMPLEX8: *name = "MPI_COMPLEX8"; break;
    case MPI_COMPLEX16: *name = "MPI_COMPLEX16"; break;
    case MPI_2INTEGER: *name = "MPI_2INTEGER"; break;
    case MPI_2REAL: *name = "MPI_2REAL"; break;
    case MPI_2DOUBLE_PRECISION: *name = "MPI_2DOUBLE_PRECISION"; break;
    case MPI_CXX_BOOL: *name = "MPI_CXX_BOOL"; break;
    case MPI_CXX_FLOAT_COMPLEX: *name = "MPI_CXX_FLOAT_COMPLEX"; break;
    case MPI_CXX_DOUBLE_COMPLEX: *name = "MPI_CXX_DOUBLE_COMPLEX"; break;
    case MPI_CXX_LONG_DOUBLE_COMPLEX: *name = "MPI_CXX_LONG_DOUBLE_COMPLEX"; break;
    default: return 0;
    }
    return 1;
}

GPUMPI_FN MPI_Datatype gp_predef_handle(const gp_tobj *o) { return (MPI_Datatype)(o - gp_predef); }

GPUMPI_FN gp_type_state *gp_types(void)
{
    gp_rank *r = gp_self();
    if (!r->type_state) {
        r->type_state = gp_calloc(1, sizeof(gp_type_state));
        if (!r->type_state) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for the datatype table");
    }
    return (gp_type_state *)r->type_state;
}

GPUMPI_FN static inline int gp_is_predef(MPI_Datatype t) { return (unsigned)t - 1u < (unsigned)(GP_NUM_PREDEF - 1); }

/* The slot behind a derived handle, or NULL. */
GPUMPI_FN static gp_tslot *gp_slot(MPI_Datatype t)
{
    if (t < GP_FIRST_DERIVED) return 0;
    gp_type_state *s = (gp_type_state *)gp_self()->type_state;
    int i = t - GP_FIRST_DERIVED;
    if (!s || i >= s->nslots || !s->slots[i].obj) return 0;
    return &s->slots[i];
}

GPUMPI_FN const gp_tobj *gp_tobj_of(MPI_Datatype t)
{
    if (gp_is_predef(t)) return &gp_predef[t];
    gp_tslot *s = gp_slot(t);
    return s ? s->obj : 0;
}

/* The object behind a handle the user may still use. */
GPUMPI_FN static const gp_tobj *gp_user_tobj(MPI_Datatype t)
{
    if (gp_is_predef(t)) return &gp_predef[t];
    gp_tslot *s = gp_slot(t);
    return s && !s->freed ? s->obj : 0;
}

GPUMPI_FN int gp_type_valid(const char *fn, MPI_Datatype t, const gp_tobj **obj)
{
    const gp_tobj *o = gp_user_tobj(t);
    if (!o)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE,
                      t == MPI_DATATYPE_NULL ? "the datatype is MPI_DATATYPE_NULL" : "invalid datatype %d", (int)t);
    if (obj) *obj = o;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_type_check_general(MPI_Comm comm, const char *fn, MPI_Datatype t, int count)
{
    const gp_tobj *o = gp_user_tobj(t);
    if (!o)
        return gp_err(comm, fn, MPI_ERR_TYPE,
                      t == MPI_DATATYPE_NULL ? "the datatype is MPI_DATATYPE_NULL" : "invalid datatype %d", (int)t);
    if (!o->committed)
        return gp_err(comm, fn, MPI_ERR_TYPE, "datatype %d is not committed (call MPI_Type_commit)", (int)t);
    if (count < 0) return gp_err(comm, fn, MPI_ERR_COUNT, "negative count %d", count);
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_type_size_general(MPI_Datatype t)
{
    if (gp_is_predef(t)) return (int)gp_predef[t].size;
    const gp_tobj *o = gp_tobj_of(t);
    return o ? (int)o->size : -1;
}

GPUMPI_FN size_t gp_type_extent(MPI_Datatype t)
{
    const gp_tobj *o = gp_tobj_of(t);
    return o ? (size_t)gp_ext(o) : 0;
}

GPUMPI_FN MPI_Datatype gp_type_basic(MPI_Datatype t)
{
    const gp_tobj *o = gp_tobj_of(t);
    return o ? o->basic : MPI_DATATYPE_NULL;
}

GPUMPI_FN int gp_type_contiguous_general(MPI_Datatype t, int count, const void *buf, const void **first)
{
    const gp_tobj *o = gp_is_predef(t) ? &gp_predef[t] : gp_tobj_of(t);
    if (!o) return 0;
    if (count == 0 || o->size == 0) {
        *first = buf;
        return 1;
    }
    if (o->dense || (count == 1 && o->run)) {
        *first = (const char *)buf + o->run_off;
        return 1;
    }
    return 0;
}

/* ---- references and handles ---------------------------------------------- */

GPUMPI_FN void gp_tobj_ref(const gp_tobj *o)
{
    if (o->refs >= 0) ((gp_tobj *)o)->refs++;
}

/* Drops a reference; an object no one holds goes on the dead list. */
GPUMPI_FN static void gp_tobj_drop(const gp_tobj *co, gp_tobj **dead)
{
    if (co->refs < 0) return;
    gp_tobj *o = (gp_tobj *)co;
    if (--o->refs > 0) return;
    o->next_dead = *dead;
    *dead = o;
}

/* Freeing a type drops its children, which may free them in turn: a
 * worklist rather than recursion (nvlink must be able to size the stack). */
GPUMPI_FN void gp_tobj_unref(const gp_tobj *co)
{
    gp_tobj *dead = 0;
    gp_tobj_drop(co, &dead);
    while (dead) {
        gp_tobj *o = dead;
        dead = o->next_dead;
        if (o->children) {
            for (int b = 0; b < o->nblocks; b++) gp_tobj_drop(o->children[b], &dead);
            gp_free(o->children);
        }
        if (o->child1) gp_tobj_drop(o->child1, &dead);
        if (o->aux) gp_tobj_drop(o->aux, &dead);
        gp_free(o->blocklens);
        gp_free(o->more);
        gp_free(o->name);
        if (o->env) { /* its types are dropped last: a dead object is never on the list twice */
            for (int k = 0; k < o->env->nd; k++) gp_tobj_drop(o->env->types[k], &dead);
            gp_free(o->env);
        }
        gp_free(o);
    }
}

GPUMPI_FN int gp_type_new_handle(const char *fn, gp_tobj *o, MPI_Datatype *newtype)
{
    if (o->depth >= GP_MAX_NEST) { /* packing walks it with a stack of that many levels */
        gp_tobj_unref(o);
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE, "datatype nested more than %d levels deep", GP_MAX_NEST);
    }
    gp_type_state *s = gp_types();
    int i;
    if (s->free_slot) {
        i = s->free_slot - 1;
        s->free_slot = s->slots[i].next_free;
    } else {
        if (s->nslots == s->cap_slots) {
            int cap = s->cap_slots ? s->cap_slots * 2 : 16;
            gp_tslot *grown = (gp_tslot *)gp_malloc(sizeof(gp_tslot) * (size_t)cap);
            if (!grown) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d datatypes", cap);
            if (s->nslots) gp_memcpy(grown, s->slots, sizeof(gp_tslot) * (size_t)s->nslots);
            gp_free(s->slots);
            s->slots = grown;
            s->cap_slots = cap;
        }
        i = s->nslots++;
    }
    gp_tslot *sl = &s->slots[i];
    sl->obj = o;
    sl->holds = 0;
    sl->freed = 0;
    sl->next_free = 0;
    sl->attrs = 0;
    *newtype = GP_FIRST_DERIVED + i;
    return MPI_SUCCESS;
}

GPUMPI_FN static void gp_slot_release(MPI_Datatype t)
{
    gp_type_state *s = gp_types();
    int i = t - GP_FIRST_DERIVED;
    gp_tobj_unref(s->slots[i].obj);
    s->slots[i].obj = 0;
    s->slots[i].next_free = s->free_slot;
    s->free_slot = i + 1;
}

GPUMPI_FN struct gp_attr **gp_type_attr_list(MPI_Datatype t)
{
    if (!gp_is_predef(t)) return &gp_slot(t)->attrs;
    gp_type_state *s = gp_types();
    if (!s->predef_attrs) {
        s->predef_attrs = (struct gp_attr **)gp_calloc(GP_NUM_PREDEF, sizeof(struct gp_attr *));
        if (!s->predef_attrs) gp_fatal("MPI_Type_set_attr", MPI_ERR_NO_MEM, "no device heap left for attributes");
    }
    return &s->predef_attrs[t];
}

GPUMPI_FN void gp_type_hold(MPI_Datatype t)
{
    gp_tslot *s = gp_slot(t);
    if (s) s->holds++;
}

GPUMPI_FN void gp_type_release(MPI_Datatype t)
{
    gp_tslot *s = gp_slot(t);
    if (s && --s->holds == 0 && s->freed) gp_slot_release(t);
}

GPUMPI_FN int MPI_Type_commit(MPI_Datatype *datatype)
{
    GP_TRY(gp_check_initialized("MPI_Type_commit"));
    if (!datatype) return gp_err(MPI_COMM_WORLD, "MPI_Type_commit", MPI_ERR_ARG, "the datatype argument is NULL");
    const gp_tobj *o = 0;
    GP_TRY(gp_type_valid("MPI_Type_commit", *datatype, &o));
    if (o->refs >= 0) ((gp_tobj *)o)->committed = 1; /* the program was built with the type */
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Type_free(MPI_Datatype *datatype)
{
    GP_TRY(gp_check_initialized("MPI_Type_free"));
    if (!datatype) return gp_err(MPI_COMM_WORLD, "MPI_Type_free", MPI_ERR_ARG, "the datatype argument is NULL");
    GP_TRY(gp_type_valid("MPI_Type_free", *datatype, 0));
    if (gp_is_predef(*datatype))
        return gp_err(MPI_COMM_WORLD, "MPI_Type_free", MPI_ERR_TYPE, "cannot free predefined datatype %d",
                      (int)*datatype);
    /* the callbacks see the type still alive; one that fails keeps it */
    int rc = gp_attrs_delete_all(GP_ATTR_TYPE, *datatype);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, "MPI_Type_free", rc, "an attribute delete callback failed with %d", rc);
    gp_tslot *s = gp_slot(*datatype);
    s->freed = 1;
    if (s->holds == 0) gp_slot_release(*datatype);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}
