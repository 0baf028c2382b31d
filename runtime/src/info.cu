/* Info objects: (key, value) strings in the order first set, each the
 * calling rank's own. gpumpi takes every hint and acts on none, so they are
 * stored and handed back as set. MPI_INFO_ENV is made on first use and
 * says how the job was started. */
#include "comm_impl.h"
#include "gpumpi/format.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

GPUMPI_FN static char *gp_info_strdup(const char *s, size_t n)
{
    char *d = (char *)gp_malloc(n + 1);
    if (!d) gp_fatal("MPI_Info_set", MPI_ERR_NO_MEM, "no device heap left for a %zu-byte info string", n);
    gp_memcpy(d, s, n);
    d[n] = 0;
    return d;
}

GPUMPI_FN static int gp_info_find_key(const gp_info *in, const char *key)
{
    for (int i = 0; i < in->n; i++)
        if (!gp_strcmp(in->keys[i], key)) return i;
    return -1;
}

/* Sets key to value, both already checked. */
GPUMPI_FN static void gp_info_put(gp_info *in, const char *key, const char *value)
{
    int i = gp_info_find_key(in, key);
    char *v = gp_info_strdup(value, gp_strlen(value));
    if (i >= 0) {
        gp_free(in->vals[i]);
        in->vals[i] = v;
        return;
    }
    if (in->n == in->cap) {
        int cap = in->cap ? in->cap * 2 : 4;
        char **k = (char **)gp_malloc(sizeof(char *) * 2 * (size_t)cap);
        if (!k) gp_fatal("MPI_Info_set", MPI_ERR_NO_MEM, "no device heap left for %d info keys", cap);
        if (in->n) {
            gp_memcpy(k, in->keys, sizeof(char *) * (size_t)in->n);
            gp_memcpy(k + cap, in->vals, sizeof(char *) * (size_t)in->n);
        }
        gp_free(in->keys); /* keys and values share one block */
        in->keys = k;
        in->vals = k + cap;
        in->cap = cap;
    }
    in->keys[in->n] = gp_info_strdup(key, gp_strlen(key));
    in->vals[in->n++] = v;
}

GPUMPI_FN static void gp_info_clear(gp_info *in)
{
    for (int i = 0; i < in->n; i++) {
        gp_free(in->keys[i]);
        gp_free(in->vals[i]);
    }
    gp_free(in->keys);
    gp_memset(in, 0, sizeof *in);
}

/* A new live entry in the table; its handle. */
GPUMPI_FN static MPI_Info gp_info_new(void)
{
    gp_comm_state *cs = gp_cs();
    int i = 1; /* entry 0 is MPI_INFO_ENV's */
    while (i < cs->ninfos && cs->infos[i].live) i++;
    if (i >= cs->ninfos) {
        if (!gp_table_reserve((void **)&cs->infos, &cs->cap_infos, i + 1, sizeof(gp_info)))
            gp_fatal("MPI_Info_create", MPI_ERR_NO_MEM, "no device heap left for %d info objects", i + 1);
        cs->ninfos = i + 1;
    }
    gp_memset(&cs->infos[i], 0, sizeof(gp_info));
    cs->infos[i].live = 1;
    return GP_INFO_BASE + i;
}

/* MPI_INFO_ENV: the keys the standard names that mean something here. */
GPUMPI_FN static gp_info *gp_info_env(void)
{
    gp_comm_state *cs = gp_cs();
    if (cs->ninfos == 0) {
        if (!gp_table_reserve((void **)&cs->infos, &cs->cap_infos, 1, sizeof(gp_info)))
            gp_fatal("MPI_INFO_ENV", MPI_ERR_NO_MEM, "no device heap left for MPI_INFO_ENV");
        cs->ninfos = 1;
    }
    gp_info *env = &cs->infos[0];
    if (!env->live) {
        env->live = 1;
        gp_world *w = gp_w();
        char num[32];
        if (w->argc > 0 && w->argv && w->argv[0]) gp_info_put(env, "command", w->argv[0]);
        if (w->argc > 1 && w->argv) { /* the arguments, space separated */
            size_t len = 0;
            for (int i = 1; i < w->argc; i++) len += gp_strlen(w->argv[i]) + 1;
            if (len > MPI_MAX_INFO_VAL - 1) len = MPI_MAX_INFO_VAL - 1;
            char *a = (char *)gp_malloc(len + 1);
            if (a) {
                size_t at = 0;
                for (int i = 1; i < w->argc && at < len; i++) {
                    size_t n = gp_strlen(w->argv[i]);
                    if (at + n > len) n = len - at;
                    gp_memcpy(a + at, w->argv[i], n);
                    at += n;
                    if (i + 1 < w->argc && at < len) a[at++] = ' ';
                }
                a[at] = 0;
                gp_info_put(env, "argv", a);
                gp_free(a);
            }
        }
        gp_snprintf(num, sizeof num, "%d", w->nranks);
        gp_info_put(env, "maxprocs", num);
        gp_info_put(env, "host", w->processor_name);
        int lv = cs->thread_level;
        gp_info_put(env, "thread_level",
                    lv == MPI_THREAD_MULTIPLE     ? "MPI_THREAD_MULTIPLE"
                    : lv == MPI_THREAD_SERIALIZED ? "MPI_THREAD_SERIALIZED"
                    : lv == MPI_THREAD_FUNNELED   ? "MPI_THREAD_FUNNELED"
                                                  : "MPI_THREAD_SINGLE");
    }
    return env;
}

/* The info behind a handle, or an error raised on MPI_COMM_WORLD. No
 * check that MPI is initialized: since MPI-4.0 the info calls work before
 * MPI_Init and after MPI_Finalize. */
GPUMPI_FN static int gp_info_get(const char *fn, MPI_Info info, gp_info **out)
{
    *out = 0;
    if (info == MPI_INFO_ENV) {
        *out = gp_info_env();
        return MPI_SUCCESS;
    }
    gp_comm_state *cs = gp_cs();
    int i = info - GP_INFO_BASE;
    if (i >= 1 && i < cs->ninfos && cs->infos[i].live) {
        *out = &cs->infos[i];
        return MPI_SUCCESS;
    }
    if (info == MPI_INFO_NULL) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_INFO, "the info argument is MPI_INFO_NULL");
    return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_INFO, "invalid info object %d (never created, or freed)", (int)info);
}

GPUMPI_FN static int gp_info_key_check(const char *fn, const char *key)
{
    if (!key) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_INFO_KEY, "the key is NULL");
    size_t n = gp_strnlen(key, MPI_MAX_INFO_KEY + 1);
    if (n == 0) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_INFO_KEY, "the key is empty");
    if (n > MPI_MAX_INFO_KEY - 1)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_INFO_KEY, "the key is longer than MPI_MAX_INFO_KEY - 1 (%d) characters",
                      MPI_MAX_INFO_KEY - 1);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_create(MPI_Info *info)
{
    if (!info) return gp_err(MPI_COMM_WORLD, "MPI_Info_create", MPI_ERR_ARG, "the info argument is NULL");
    *info = gp_info_new();
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_set(MPI_Info info, const char *key, const char *value)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_set", info, &in));
    if (info == MPI_INFO_ENV)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_set", MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
    GP_TRY(gp_info_key_check("MPI_Info_set", key));
    if (!value) return gp_err(MPI_COMM_WORLD, "MPI_Info_set", MPI_ERR_INFO_VALUE, "the value is NULL");
    if (gp_strnlen(value, MPI_MAX_INFO_VAL + 1) > MPI_MAX_INFO_VAL - 1)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_set", MPI_ERR_INFO_VALUE,
                      "the value of '%s' is longer than MPI_MAX_INFO_VAL - 1 (%d) characters", key, MPI_MAX_INFO_VAL - 1);
    gp_info_put(in, key, value);
    return MPI_SUCCESS;
}

/* Copies at most valuelen characters and a terminator, as the standard says. */
GPUMPI_FN int MPI_Info_get(MPI_Info info, const char *key, int valuelen, char *value, int *flag)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_get", info, &in));
    GP_TRY(gp_info_key_check("MPI_Info_get", key));
    if (valuelen < 0) return gp_err(MPI_COMM_WORLD, "MPI_Info_get", MPI_ERR_ARG, "negative valuelen %d", valuelen);
    int i = gp_info_find_key(in, key);
    *flag = i >= 0;
    if (i < 0) return MPI_SUCCESS;
    size_t n = gp_strlen(in->vals[i]);
    if (n > (size_t)valuelen) n = (size_t)valuelen;
    gp_memcpy(value, in->vals[i], n);
    value[n] = 0;
    return MPI_SUCCESS;
}

/* MPI-4.0's MPI_Info_get: *buflen in, the room in value; out, the length
 * the whole value needs with its terminator. A missing key changes neither. */
GPUMPI_FN int MPI_Info_get_string(MPI_Info info, const char *key, int *buflen, char *value, int *flag)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_get_string", info, &in));
    GP_TRY(gp_info_key_check("MPI_Info_get_string", key));
    if (!buflen || !flag)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_get_string", MPI_ERR_ARG, "the %s argument is NULL",
                      buflen ? "flag" : "buflen");
    if (*buflen < 0)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_get_string", MPI_ERR_ARG, "negative buflen %d", *buflen);
    int i = gp_info_find_key(in, key);
    *flag = i >= 0;
    if (i < 0) return MPI_SUCCESS;
    size_t n = gp_strlen(in->vals[i]);
    if (*buflen > 0) {
        size_t m = n < (size_t)*buflen - 1 ? n : (size_t)*buflen - 1;
        gp_memcpy(value, in->vals[i], m);
        value[m] = 0;
    }
    *buflen = (int)n + 1;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_get_valuelen(MPI_Info info, const char *key, int *valuelen, int *flag)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_get_valuelen", info, &in));
    GP_TRY(gp_info_key_check("MPI_Info_get_valuelen", key));
    int i = gp_info_find_key(in, key);
    *flag = i >= 0;
    if (i >= 0) *valuelen = (int)gp_strlen(in->vals[i]);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_get_nkeys(MPI_Info info, int *nkeys)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_get_nkeys", info, &in));
    *nkeys = in->n;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_get_nthkey(MPI_Info info, int n, char *key)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_get_nthkey", info, &in));
    if (n < 0 || n >= in->n)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_get_nthkey", MPI_ERR_ARG, "key %d asked of an info with %d keys", n,
                      in->n);
    gp_strcpy(key, in->keys[n]);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Info_delete(MPI_Info info, const char *key)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_delete", info, &in));
    if (info == MPI_INFO_ENV)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_delete", MPI_ERR_INFO, "MPI_INFO_ENV cannot be changed");
    GP_TRY(gp_info_key_check("MPI_Info_delete", key));
    int i = gp_info_find_key(in, key);
    if (i < 0) return gp_err(MPI_COMM_WORLD, "MPI_Info_delete", MPI_ERR_INFO_NOKEY, "no key '%s' in the info", key);
    gp_free(in->keys[i]);
    gp_free(in->vals[i]);
    for (int j = i + 1; j < in->n; j++) { /* keep the order keys were set in */
        in->keys[j - 1] = in->keys[j];
        in->vals[j - 1] = in->vals[j];
    }
    in->n--;
    return MPI_SUCCESS;
}

/* The communicator hints gpumpi takes (MPI-4.0's assertions, which it is
 * free not to exploit); MPI_Comm_set_info and MPI_Comm_dup_with_info drop
 * the others, as MPICH does, so MPI_Comm_get_info does not list them. */
GPUMPI_FN static int gp_comm_hint_known(const char *key)
{
    static const char *const known[] = {"mpi_assert_no_any_tag", "mpi_assert_no_any_source",
                                        "mpi_assert_exact_length", "mpi_assert_allow_overtaking"};
    for (unsigned i = 0; i < sizeof known / sizeof known[0]; i++)
        if (!gp_strcmp(key, known[i])) return 1;
    return 0;
}

GPUMPI_FN static int gp_info_copy_some(const char *fn, MPI_Info info, MPI_Info *out, int comm_hints)
{
    gp_info *from = 0;
    if (info != MPI_INFO_NULL) GP_TRY(gp_info_get(fn, info, &from));
    MPI_Info h = gp_info_new(); /* may move the table */
    if (info != MPI_INFO_NULL) {
        gp_info_get(fn, info, &from);
        gp_info *to = &gp_cs()->infos[h - GP_INFO_BASE];
        for (int i = 0; i < from->n; i++) {
            if (!comm_hints || gp_comm_hint_known(from->keys[i])) gp_info_put(to, from->keys[i], from->vals[i]);
            gp_info_get(fn, info, &from); /* gp_info_put never moves the table, but stay safe */
        }
    }
    *out = h;
    return MPI_SUCCESS;
}

GPUMPI_FN int gp_info_copy(const char *fn, MPI_Info info, MPI_Info *out) { return gp_info_copy_some(fn, info, out, 0); }
GPUMPI_FN int gp_info_copy_comm_hints(const char *fn, MPI_Info info, MPI_Info *out)
{
    return gp_info_copy_some(fn, info, out, 1);
}

GPUMPI_FN void gp_info_release(MPI_Info *info)
{
    gp_comm_state *cs = gp_cs();
    int i = *info - GP_INFO_BASE;
    if (i >= 1 && i < cs->ninfos && cs->infos[i].live) gp_info_clear(&cs->infos[i]);
    *info = MPI_INFO_NULL;
}

GPUMPI_FN int MPI_Info_dup(MPI_Info info, MPI_Info *newinfo)
{
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_dup", info, &in));
    if (!newinfo) return gp_err(MPI_COMM_WORLD, "MPI_Info_dup", MPI_ERR_ARG, "the newinfo argument is NULL");
    return gp_info_copy("MPI_Info_dup", info, newinfo);
}

/* What MPI_INFO_ENV holds: gpumpi starts every rank the one way, so the
 * program's own argc and argv are the launcher's, already there. */
GPUMPI_FN int MPI_Info_create_env(int argc, char *argv[], MPI_Info *info)
{
    (void)argc;
    (void)argv;
    if (!info) return gp_err(MPI_COMM_WORLD, "MPI_Info_create_env", MPI_ERR_ARG, "the info argument is NULL");
    return gp_info_copy("MPI_Info_create_env", MPI_INFO_ENV, info);
}

GPUMPI_FN int MPI_Info_free(MPI_Info *info)
{
    if (!info) return gp_err(MPI_COMM_WORLD, "MPI_Info_free", MPI_ERR_ARG, "the info argument is NULL");
    gp_info *in;
    GP_TRY(gp_info_get("MPI_Info_free", *info, &in));
    if (*info == MPI_INFO_ENV)
        return gp_err(MPI_COMM_WORLD, "MPI_Info_free", MPI_ERR_INFO, "MPI_INFO_ENV cannot be freed");
    gp_info_release(info);
    return MPI_SUCCESS;
}
