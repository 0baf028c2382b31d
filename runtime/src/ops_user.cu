/* User reduction operations: MPI_Op_create, MPI_Op_free,
 * MPI_Op_commutative, and calling the user's function. Handles are
 * GP_FIRST_USER_OP + a slot of the calling rank's table.
 *
 * The user's function gets the datatype handle the reduction was called
 * with and data laid out as that datatype describes. Reductions work on
 * packed data, which is that layout when the type is contiguous (one run
 * from the origin of each element, elements back to back): then the
 * function runs on the packed data directly. Otherwise both operands are
 * unpacked into temporaries shaped like the user's buffers, the function
 * runs on those, and the result is packed back. */
#include "datatype.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

/* The slot of a user op, freed or not, while its function may still run. */
GPUMPI_FN static gp_uop *gp_uop_slot(MPI_Op op)
{
    if (op < GP_FIRST_USER_OP) return 0;
    gp_type_state *s = (gp_type_state *)gp_self()->type_state;
    int i = op - GP_FIRST_USER_OP;
    if (!s || i >= s->nops || !s->ops[i].fn) return 0;
    return &s->ops[i];
}

/* A user op the program may still name. */
GPUMPI_FN static gp_uop *gp_uop_of(MPI_Op op)
{
    gp_uop *u = gp_uop_slot(op);
    return u && !u->freed ? u : 0;
}

GPUMPI_FN static void gp_uop_reuse(MPI_Op op)
{
    gp_type_state *s = gp_types();
    gp_uop *u = &s->ops[op - GP_FIRST_USER_OP];
    u->fn = 0;
    u->next_free = s->free_op;
    s->free_op = op - GP_FIRST_USER_OP + 1;
}

GPUMPI_FN void gp_op_hold(MPI_Op op)
{
    gp_uop *u = gp_uop_slot(op);
    if (u) u->holds++;
}

GPUMPI_FN void gp_op_release(MPI_Op op)
{
    gp_uop *u = gp_uop_slot(op);
    if (u && --u->holds == 0 && u->freed) gp_uop_reuse(op);
}

GPUMPI_FN int gp_user_op_commutative(MPI_Op op)
{
    gp_uop *u = gp_uop_of(op);
    return u ? u->commute : -1;
}

/* MPI_Op_create and MPI_Op_create_c: large says fn is an
 * MPI_User_function_c (kept in the same slot, called with an MPI_Count). */
GPUMPI_FN static int gp_op_create(const char *fn_name, MPI_User_function *user_fn, int large, int commute, MPI_Op *op)
{
    GP_TRY(gp_check_initialized(fn_name));
    if (!user_fn || !op)
        return gp_err(MPI_COMM_WORLD, fn_name, MPI_ERR_ARG, "the %s argument is NULL", user_fn ? "op" : "user function");
    gp_type_state *s = gp_types();
    int i;
    if (s->free_op) {
        i = s->free_op - 1;
        s->free_op = s->ops[i].next_free;
    } else {
        if (s->nops == s->cap_ops) {
            int cap = s->cap_ops ? s->cap_ops * 2 : 8;
            gp_uop *grown = (gp_uop *)gp_malloc(sizeof(gp_uop) * (size_t)cap);
            if (!grown) return gp_fatal(fn_name, MPI_ERR_NO_MEM, "no device heap left for %d operations", cap);
            if (s->nops) gp_memcpy(grown, s->ops, sizeof(gp_uop) * (size_t)s->nops);
            gp_free(s->ops);
            s->ops = grown;
            s->cap_ops = cap;
        }
        i = s->nops++;
    }
    s->ops[i].fn = user_fn;
    s->ops[i].large = large;
    s->ops[i].commute = commute != 0;
    s->ops[i].next_free = 0;
    s->ops[i].holds = 0;
    s->ops[i].freed = 0;
    *op = GP_FIRST_USER_OP + i;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Op_create(MPI_User_function *user_fn, int commute, MPI_Op *op)
{
    return gp_op_create("MPI_Op_create", user_fn, 0, commute, op);
}

GPUMPI_FN int MPI_Op_create_c(MPI_User_function_c *user_fn, int commute, MPI_Op *op)
{
    return gp_op_create("MPI_Op_create_c", (MPI_User_function *)user_fn, 1, commute, op);
}

/* Calls the user's function with the length type it was declared with. */
GPUMPI_FN static void gp_uop_call(const gp_uop *u, void *in, void *inout, int count, MPI_Datatype *dt)
{
    if (u->large) {
        MPI_Count len = count;
        ((MPI_User_function_c *)u->fn)(in, inout, &len, dt);
    } else {
        int len = count;
        u->fn(in, inout, &len, dt);
    }
}

GPUMPI_FN int MPI_Op_free(MPI_Op *op)
{
    GP_TRY(gp_check_initialized("MPI_Op_free"));
    if (!op) return gp_err(MPI_COMM_WORLD, "MPI_Op_free", MPI_ERR_ARG, "the op argument is NULL");
    gp_uop *u = gp_uop_of(*op);
    if (!u)
        return gp_err(MPI_COMM_WORLD, "MPI_Op_free", MPI_ERR_OP,
                      *op > MPI_OP_NULL && *op <= MPI_NO_OP ? "cannot free predefined operation %d"
                                                              : "invalid operation %d",
                      (int)*op);
    if (u->holds)
        u->freed = 1; /* a pending reduction still calls it */
    else
        gp_uop_reuse(*op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Op_commutative(MPI_Op op, int *commute)
{
    GP_TRY(gp_check_initialized("MPI_Op_commutative"));
    if (!commute) return gp_err(MPI_COMM_WORLD, "MPI_Op_commutative", MPI_ERR_ARG, "the commute argument is NULL");
    int c = gp_user_op_commutative(op);
    if (c < 0 && (op <= MPI_OP_NULL || op > MPI_NO_OP))
        return gp_err(MPI_COMM_WORLD, "MPI_Op_commutative", MPI_ERR_OP, "invalid operation %d", (int)op);
    *commute = c < 0 ? 1 : c;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_user_op_apply(MPI_Op op, MPI_Datatype t, const void *in, void *inout, int count)
{
    gp_uop *u = gp_uop_slot(op);
    if (!u) return MPI_ERR_OP;
    const gp_tobj *o = gp_tobj_of(t);
    if (!o) return MPI_ERR_TYPE;
    if (count <= 0) return MPI_SUCCESS;
    MPI_Datatype dt = t;
    if (o->size == 0 || (o->run_off == 0 && (o->dense || (count == 1 && o->run)))) {
        gp_uop_call(u, (void *)in, inout, count, &dt);
        return MPI_SUCCESS;
    }
    /* the bytes count elements span, true bounds first to last */
    MPI_Aint ext = gp_ext(o), last = (MPI_Aint)(count - 1) * ext;
    MPI_Aint lo = o->true_lb + (last < 0 ? last : 0), hi = o->true_ub + (last > 0 ? last : 0);
    size_t span = (size_t)(hi - lo), bytes = (size_t)count * (size_t)o->size;
    char *a = (char *)gp_malloc(span), *b = (char *)gp_malloc(span);
    if (!a || !b) return gp_fatal("MPI_Reduce", MPI_ERR_NO_MEM, "no device heap left for %zu bytes", 2 * span);
    char *origin_a = a - lo, *origin_b = b - lo;
    gp_type_unpack(in, bytes, origin_a, count, t);
    gp_type_unpack(inout, bytes, origin_b, count, t);
    gp_uop_call(u, origin_a, origin_b, count, &dt);
    gp_type_pack(origin_b, count, t, inout);
    gp_free(a);
    gp_free(b);
    return MPI_SUCCESS;
}
