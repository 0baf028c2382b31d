/* Attributes: the predefined keys every communicator answers (MPI_TAG_UB,
 * MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL, MPI_UNIVERSE_SIZE, MPI_APPNUM,
 * MPI_LASTUSEDCODE), and user keys with their copy and delete callbacks,
 * run by MPI_Comm_dup and MPI_Comm_free. Keys and values are the calling
 * rank's own. */
#include "comm_impl.h"
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

GPUMPI_FN static gp_keyval *gp_keyval_find(int keyval)
{
    gp_comm_state *cs = gp_cs();
    int i = keyval - GP_KEYVAL_BASE;
    return i >= 0 && i < cs->nkeyvals && cs->keyvals[i].refs ? &cs->keyvals[i] : 0;
}

GPUMPI_FN static int gp_is_predefined_key(int keyval) { return keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE; }

GPUMPI_FN static void gp_keyval_release(int keyval)
{
    gp_keyval *k = gp_keyval_find(keyval);
    if (k) k->refs--;
}

GPUMPI_FN static gp_attr **gp_attr_slot(gp_comm *c, int keyval)
{
    gp_attr **p = &c->attrs;
    while (*p && (*p)->keyval != keyval) p = &(*p)->next;
    return p;
}

/* Runs the delete callback of one attribute and unlinks it. */
GPUMPI_FN static int gp_attr_remove(MPI_Comm comm, gp_attr **slot)
{
    gp_attr *a = *slot;
    gp_keyval *k = gp_keyval_find(a->keyval);
    int rc = MPI_SUCCESS;
    if (k && k->delete_fn) rc = k->delete_fn(comm, a->keyval, a->value, k->extra);
    if (rc != MPI_SUCCESS) return rc; /* the attribute stays, as the standard says */
    /* the callback may have changed the list: find the attribute again */
    gp_comm *c = gp_comm_find(comm);
    gp_attr **p = gp_attr_slot(c, a->keyval);
    if (*p == a) *p = a->next;
    gp_keyval_release(a->keyval);
    gp_free(a);
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_attr_add(MPI_Comm comm, int keyval, void *value)
{
    gp_attr *a = (gp_attr *)gp_malloc(sizeof(gp_attr));
    if (!a) return MPI_ERR_NO_MEM;
    gp_comm *c = gp_comm_find(comm);
    a->keyval = keyval;
    a->value = value;
    a->next = 0;
    *gp_attr_slot(c, keyval) = a; /* appended: attributes copy in the order they were set */
    gp_keyval_find(keyval)->refs++;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attrs_copy(MPI_Comm comm, MPI_Comm newcomm)
{
    for (gp_attr *a = gp_comm_find(comm)->attrs; a; a = a->next) {
        gp_keyval *k = gp_keyval_find(a->keyval);
        if (!k || !k->copy_fn) continue;
        void *out = 0;
        int flag = 0;
        int rc = k->copy_fn(comm, a->keyval, k->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS) return rc;
        if (flag) {
            rc = gp_attr_add(newcomm, a->keyval, out);
            if (rc != MPI_SUCCESS) return rc;
        }
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_attrs_delete_all(MPI_Comm comm)
{
    gp_comm *c = gp_comm_find(comm);
    while (c->attrs) {
        int rc = gp_attr_remove(comm, &c->attrs);
        if (rc != MPI_SUCCESS) return rc;
        c = gp_comm_find(comm);
    }
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_create_keyval(MPI_Comm_copy_attr_function *comm_copy_attr_fn,
                                     MPI_Comm_delete_attr_function *comm_delete_attr_fn, int *comm_keyval,
                                     void *extra_state)
{
    GP_TRY(gp_check_initialized("MPI_Comm_create_keyval"));
    gp_comm_state *cs = gp_cs();
    int i = 0;
    while (i < cs->nkeyvals && cs->keyvals[i].refs) i++;
    if (i == cs->nkeyvals) {
        if (!gp_table_reserve((void **)&cs->keyvals, &cs->cap_keyvals, i + 1, sizeof(gp_keyval)))
            return gp_fatal("MPI_Comm_create_keyval", MPI_ERR_NO_MEM, "no device heap left for %d keys", i + 1);
        cs->nkeyvals++;
    }
    gp_keyval *k = &cs->keyvals[i];
    k->refs = 1;
    k->copy_fn = comm_copy_attr_fn;
    k->delete_fn = comm_delete_attr_fn;
    k->extra = extra_state;
    *comm_keyval = GP_KEYVAL_BASE + i;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_free_keyval(int *comm_keyval)
{
    GP_TRY(gp_check_initialized("MPI_Comm_free_keyval"));
    if (!comm_keyval || !gp_keyval_find(*comm_keyval))
        return gp_err(MPI_COMM_WORLD, "MPI_Comm_free_keyval", MPI_ERR_KEYVAL, "invalid key %d",
                      comm_keyval ? *comm_keyval : 0);
    gp_keyval_release(*comm_keyval); /* attributes still using it keep it alive */
    *comm_keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

GPUMPI_FN static int gp_check_user_key(const char *fn, MPI_Comm comm, int keyval)
{
    if (gp_keyval_find(keyval)) return MPI_SUCCESS;
    if (gp_is_predefined_key(keyval))
        return gp_err(comm, fn, MPI_ERR_KEYVAL, "the predefined key %d cannot be set or deleted", keyval);
    return gp_err(comm, fn, MPI_ERR_KEYVAL, "invalid key %d", keyval);
}

GPUMPI_FN int MPI_Comm_set_attr(MPI_Comm comm, int comm_keyval, void *attribute_val)
{
    GP_TRY(gp_comm_check("MPI_Comm_set_attr", comm));
    GP_TRY(gp_check_user_key("MPI_Comm_set_attr", comm, comm_keyval));
    gp_attr *a = *gp_attr_slot(gp_comm_find(comm), comm_keyval);
    if (a) { /* replacing a value deletes the old one first; the attribute keeps its place (MPICH does too) */
        gp_keyval *k = gp_keyval_find(comm_keyval);
        int rc = k->delete_fn ? k->delete_fn(comm, comm_keyval, a->value, k->extra) : MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            return gp_err(comm, "MPI_Comm_set_attr", rc, "the delete callback of key %d failed", comm_keyval);
        a = *gp_attr_slot(gp_comm_find(comm), comm_keyval); /* the callback may have changed the list */
        if (a) {
            a->value = attribute_val;
            return MPI_SUCCESS;
        }
    }
    int rc = gp_attr_add(comm, comm_keyval, attribute_val);
    if (rc != MPI_SUCCESS) return gp_err(comm, "MPI_Comm_set_attr", rc, "no device heap left for an attribute");
    return MPI_SUCCESS;
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
    if (!gp_keyval_find(comm_keyval))
        return gp_err(comm, "MPI_Comm_get_attr", MPI_ERR_KEYVAL, "invalid key %d", comm_keyval);
    gp_attr *a = *gp_attr_slot(gp_comm_find(comm), comm_keyval);
    *flag = a != 0;
    if (a) *(void **)attribute_val = a->value;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Comm_delete_attr(MPI_Comm comm, int comm_keyval)
{
    GP_TRY(gp_comm_check("MPI_Comm_delete_attr", comm));
    GP_TRY(gp_check_user_key("MPI_Comm_delete_attr", comm, comm_keyval));
    gp_attr **slot = gp_attr_slot(gp_comm_find(comm), comm_keyval);
    if (!*slot)
        return gp_err(comm, "MPI_Comm_delete_attr", MPI_ERR_KEYVAL, "key %d has no attribute on this communicator",
                      comm_keyval);
    int rc = gp_attr_remove(comm, slot);
    if (rc != MPI_SUCCESS)
        return gp_err(comm, "MPI_Comm_delete_attr", rc, "the delete callback of key %d failed", comm_keyval);
    return MPI_SUCCESS;
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
        gp_comm *c = gp_comm_find(comm);
        if (!c->attrs) return MPI_SUCCESS;
        gp_attr **last = &c->attrs;
        while ((*last)->next) last = &(*last)->next;
        int rc = gp_attr_remove(comm, last);
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
