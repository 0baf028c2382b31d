/* Attributes: the predefined keys every communicator answers (MPI_TAG_UB,
 * MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM,
 * MPI_LASTUSEDCODE), and user keys with their copy and delete callbacks,
 * run by MPI_Comm_dup / MPI_Type_dup and MPI_Comm_free / MPI_Type_free.
 * One implementation for every kind of object (a key belongs to one
 * kind); types_attr.cu is the datatype face of it. Keys and values are the
 * calling rank's own. */
#include "comm_impl.h"
#include "datatype.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN int gp_comm_dup_fn(MPI_Comm oldcomm, int keyval, void *extra_state, void *attribute_val_in,
                             void *attribute_val_out, int *flag)
{
    (void)oldcomm;
    (void)keyval;
    (void)extra_state;
    *(void **)attribute_val_out = attribute_val_in;
    *flag = 1;
    return MPI_SUCCESS;
}

/* The key behind a keyval of that kind: alive while its handle or an
 * attribute uses it, even after MPI_*_free_keyval (the standard frees the
 * handle at once, the key with its last attribute). */
GPUMPI_FN static gp_keyval *gp_keyval_find(int kind, int keyval)
{
    gp_comm_state *cs = gp_cs();
    int i = keyval - GP_KEYVAL_BASE;
    return i >= 0 && i < cs->nkeyvals && cs->keyvals[i].refs && cs->keyvals[i].kind == kind ? &cs->keyvals[i] : 0;
}

GPUMPI_FN static int gp_is_predefined_key(int keyval) { return keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE; }

GPUMPI_FN static void gp_keyval_release(int kind, int keyval)
{
    gp_keyval *k = gp_keyval_find(kind, keyval);
    if (k) k->refs--;
}

/* Errors about an object go to its communicator; a datatype has none. */
GPUMPI_FN static MPI_Comm gp_attr_errcomm(int kind, int obj)
{
    return kind == GP_ATTR_COMM ? (MPI_Comm)obj : MPI_COMM_WORLD;
}

/* Where an object keeps its attributes (looked up again after every
 * callback: a callback may grow the tables that hold them). */
GPUMPI_FN static gp_attr **gp_attr_list(int kind, int obj)
{
    if (kind == GP_ATTR_COMM) return &gp_comm_find((MPI_Comm)obj)->attrs;
    return gp_type_attr_list((MPI_Datatype)obj);
}

GPUMPI_FN static gp_attr **gp_attr_slot(int kind, int obj, int keyval)
{
    gp_attr **p = gp_attr_list(kind, obj);
    while (*p && (*p)->keyval != keyval) p = &(*p)->next;
    return p;
}

/* Runs the delete callback of one attribute and unlinks it. */
GPUMPI_FN static int gp_attr_remove(int kind, int obj, gp_attr **slot)
{
    gp_attr *a = *slot;
    gp_keyval *k = gp_keyval_find(kind, a->keyval);
    int rc = MPI_SUCCESS;
    if (k && k->delete_fn) rc = k->delete_fn(obj, a->keyval, a->value, k->extra);
    if (rc != MPI_SUCCESS) return rc; /* the attribute stays, as the standard says */
    gp_attr **p = gp_attr_slot(kind, obj, a->keyval);
    if (*p == a) *p = a->next;
    gp_keyval_release(kind, a->keyval);
    gp_free(a);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_attr_add(int kind, int obj, int keyval, void *value)
{
    gp_attr *a = (gp_attr *)gp_malloc(sizeof(gp_attr));
    if (!a) return MPI_ERR_NO_MEM;
    a->keyval = keyval;
    a->value = value;
    a->next = 0;
    *gp_attr_slot(kind, obj, keyval) = a; /* appended: attributes copy in the order they were set */
    gp_keyval_find(kind, keyval)->refs++;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attrs_copy(int kind, int obj, int newobj)
{
    for (gp_attr *a = *gp_attr_list(kind, obj); a; a = a->next) {
        gp_keyval *k = gp_keyval_find(kind, a->keyval);
        if (!k || !k->copy_fn) continue;
        void *out = 0;
        int flag = 0;
        int rc = k->copy_fn(obj, a->keyval, k->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS) return rc;
        if (flag) {
            rc = gp_attr_add(kind, newobj, a->keyval, out);
            if (rc != MPI_SUCCESS) return rc;
        }
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attrs_delete_all(int kind, int obj)
{
    gp_attr **head;
    while (*(head = gp_attr_list(kind, obj))) {
        int rc = gp_attr_remove(kind, obj, head);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_keyval_create(const char *fn, int kind, MPI_Comm_copy_attr_function *copy_fn,
                               MPI_Comm_delete_attr_function *delete_fn, int *keyval, void *extra_state)
{
    GP_TRY(gp_check_initialized(fn));
    if (!keyval) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the keyval argument is NULL");
    gp_comm_state *cs = gp_cs();
    int i = 0;
    while (i < cs->nkeyvals && cs->keyvals[i].refs) i++;
    if (i == cs->nkeyvals) {
        if (!gp_table_reserve((void **)&cs->keyvals, &cs->cap_keyvals, i + 1, sizeof(gp_keyval)))
            return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d keys", i + 1);
        cs->nkeyvals++;
    }
    gp_keyval *k = &cs->keyvals[i];
    k->refs = 1;
    k->kind = kind;
    k->handle_freed = 0;
    k->copy_fn = copy_fn;
    k->delete_fn = delete_fn;
    k->extra = extra_state;
    *keyval = GP_KEYVAL_BASE + i;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_keyval_free(const char *fn, int kind, int *keyval)
{
    GP_TRY(gp_check_initialized(fn));
    gp_keyval *k = keyval ? gp_keyval_find(kind, *keyval) : 0;
    if (!k) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_KEYVAL, "invalid key %d", keyval ? *keyval : 0);
    /* a second free of a key that attributes keep alive is a no-op (MPICH
     * allows it, and delete callbacks that free their key rely on it) */
    if (!k->handle_freed) {
        k->handle_freed = 1;
        k->refs--;
    }
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_check_user_key(const char *fn, int kind, int obj, int keyval)
{
    MPI_Comm ec = gp_attr_errcomm(kind, obj);
    if (gp_keyval_find(kind, keyval)) return MPI_SUCCESS;
    if (kind == GP_ATTR_COMM && gp_is_predefined_key(keyval))
        return gp_err(ec, fn, MPI_ERR_KEYVAL, "the predefined key %d cannot be set or deleted", keyval);
    for (int other = GP_ATTR_COMM; other <= GP_ATTR_TYPE; other++)
        if (other != kind && gp_keyval_find(other, keyval))
            return gp_err(ec, fn, MPI_ERR_KEYVAL, "key %d was made for %s", keyval,
                          other == GP_ATTR_COMM ? "communicators" : "datatypes");
    return gp_err(ec, fn, MPI_ERR_KEYVAL, "invalid key %d", keyval);
}

GPUMPI_FN int gp_attr_set(const char *fn, int kind, int obj, int keyval, void *value)
{
    MPI_Comm ec = gp_attr_errcomm(kind, obj);
    GP_TRY(gp_check_user_key(fn, kind, obj, keyval));
    gp_attr *a = *gp_attr_slot(kind, obj, keyval);
    if (a) { /* replacing a value deletes the old one first; the attribute keeps its place (MPICH does too) */
        gp_keyval *k = gp_keyval_find(kind, keyval);
        int rc = k->delete_fn ? k->delete_fn(obj, keyval, a->value, k->extra) : MPI_SUCCESS;
        if (rc != MPI_SUCCESS) return gp_err(ec, fn, rc, "the delete callback of key %d failed", keyval);
        a = *gp_attr_slot(kind, obj, keyval); /* the callback may have changed the list */
        if (a) {
            a->value = value;
            return MPI_SUCCESS;
        }
    }
    int rc = gp_attr_add(kind, obj, keyval, value);
    if (rc != MPI_SUCCESS) return gp_err(ec, fn, rc, "no device heap left for an attribute");
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attr_get(const char *fn, int kind, int obj, int keyval, void *value, int *flag)
{
    GP_TRY(gp_check_user_key(fn, kind, obj, keyval));
    if (!value || !flag)
        return gp_err(gp_attr_errcomm(kind, obj), fn, MPI_ERR_ARG, "the %s argument is NULL",
                      value ? "flag" : "attribute_val");
    gp_attr *a = *gp_attr_slot(kind, obj, keyval);
    *flag = a != 0;
    if (a) *(void **)value = a->value;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attr_delete(const char *fn, int kind, int obj, int keyval)
{
    MPI_Comm ec = gp_attr_errcomm(kind, obj);
    GP_TRY(gp_check_user_key(fn, kind, obj, keyval));
    gp_attr **slot = gp_attr_slot(kind, obj, keyval);
    if (!*slot) return gp_err(ec, fn, MPI_ERR_KEYVAL, "key %d has no attribute on this object", keyval);
    int rc = gp_attr_remove(kind, obj, slot);
    if (rc != MPI_SUCCESS) return gp_err(ec, fn, rc, "the delete callback of key %d failed", keyval);
    return MPI_SUCCESS;
}

/* ---- communicators ----------------------------------------------------- */

GPUMPI_FN int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                     MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                     void *extra_state)
{
    return gp_keyval_create("MPI_Comm_create_keyval", GP_ATTR_COMM, comm_copy_attr_fn, comm_delete_attr_fn,
                            comm_keyval, extra_state);
}

GPUMPI_FN int MPI_Comm_free_keyval(int *comm_keyval)
{
    return gp_keyval_free("MPI_Comm_free_keyval", GP_ATTR_COMM, comm_keyval);
}

GPUMPI_FN int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    GP_TRY(gp_comm_check("MPI_Comm_set_attr", comm));
    return gp_attr_set("MPI_Comm_set_attr", GP_ATTR_COMM, comm, comm_keyval, attribute_val);
}

GPUMPI_FN int MPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void *attribute_val, int *flag)
{
    GP_TRY(gp_comm_check("MPI_Comm_get_attr", comm));
    if (gp_is_predefined_key(comm_keyval)) {
        /* the value is a pointer to an int, as the standard says */
        *(int **)attribute_val = &gp_cs()->attr_values[comm_keyval];
        *flag = 1;
        return MPI_SUCCESS;
    }
    return gp_attr_get("MPI_Comm_get_attr", GP_ATTR_COMM, comm, comm_keyval, attribute_val, flag);
}

GPUMPI_FN int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    GP_TRY(gp_comm_check("MPI_Comm_delete_attr", comm));
    return gp_attr_delete("MPI_Comm_delete_attr", GP_ATTR_COMM, comm, comm_keyval);
}

GPUMPI_FN int MPI_Keyval_create(MPI_Copy_function *copy_fn, MPI_Delete_function *delete_fn, int *keyval,
                                void *extra_state)
{
    return MPI_Comm_create_keyval(copy_fn, delete_fn, keyval, extra_state);
}

GPUMPI_FN int MPI_Keyval_free(int *keyval) { return MPI_Comm_free_keyval(keyval); }

GPUMPI_FN int MPI_Attr_put(MPI_Comm comm, int keyval, void *attribute_val)
{
    return MPI_Comm_set_attr(comm, keyval, attribute_val);
}

GPUMPI_FN int MPI_Attr_get(MPI_Comm comm, int keyval, void *attribute_val, int *flag)
{
    return MPI_Comm_get_attr(comm, keyval, attribute_val, flag);
}

GPUMPI_FN int MPI_Attr_delete(MPI_Comm comm, int keyval) { return MPI_Comm_delete_attr(comm, keyval); }

/* MPI_Finalize frees MPI_COMM_SELF's attributes first, newest first, as
 * the standard says (libraries rely on it to run their clean-up while MPI
 * still works), then MPI_COMM_WORLD's the same way. */
GPUMPI_FN static int gp_attrs_delete_newest_first(MPI_Comm comm)
{
    for (;;) {
        gp_attr **last = gp_attr_list(GP_ATTR_COMM, comm);
        if (!*last) return MPI_SUCCESS;
        while ((*last)->next) last = &(*last)->next;
        int rc = gp_attr_remove(GP_ATTR_COMM, comm, last);
        if (rc != MPI_SUCCESS) return rc;
    }
}

GPUMPI_FN int gp_attrs_finalize(void)
{
    int rc = gp_attrs_delete_newest_first(MPI_COMM_SELF);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_SELF, "MPI_Finalize", rc, "a delete callback of an MPI_COMM_SELF attribute failed with %d",
                      rc);
    rc = gp_attrs_delete_newest_first(MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, "MPI_Finalize", rc,
                      "a delete callback of an MPI_COMM_WORLD attribute failed with %d", rc);
    return MPI_SUCCESS;
}
