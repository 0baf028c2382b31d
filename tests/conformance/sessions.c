/* MPI-4.0 sessions: a program that starts with sessions alone (no
 * MPI_Init), opens two at once, takes groups from the mpi://WORLD and
 * mpi://SELF process sets, makes communicators from groups with string
 * tags (the whole world, two disjoint halves under one tag, the world in
 * reverse order, SELF) and an intercommunicator from two groups, moves
 * data over them (collectives and point to point), checks the info
 * values, session error handlers and handle conversion, opens and closes
 * sessions in turn, then mixes a session with MPI_Init. Rank 0 prints
 * " No Errors" when every check passed on every rank. Any number of
 * ranks >= 1. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mpitest.h"

static int handler_calls, handler_code;
static MPI_Session handler_session;

static void session_handler(MPI_Session *s, int *code, ...)
{
    handler_calls++;
    handler_code = *code;
    handler_session = *s;
}

/* An info value as an int (-1 if missing). */
static int info_int(MPI_Info info, const char *key)
{
    char v[64];
    int flag = 0;
    MPI_Info_get(info, key, sizeof v - 1, v, &flag);
    return flag ? atoi(v) : -1;
}

static void check_psets(MPI_Session s)
{
    int n = 0, world = 0, self = 0;
    MPI_Session_get_num_psets(s, MPI_INFO_NULL, &n);
    CHECK(n >= 2, "%d process sets, expected at least mpi://WORLD and mpi://SELF", n);
    for (int i = 0; i < n; i++) {
        char name[MPI_MAX_PSET_NAME_LEN];
        int len = 0;
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &len, NULL);
        CHECK(len > 1 && len <= MPI_MAX_PSET_NAME_LEN, "pset %d: length %d", i, len);
        int got = len;
        MPI_Session_get_nth_pset(s, MPI_INFO_NULL, i, &got, name);
        CHECK(got == len && (int)strlen(name) + 1 == len, "pset %d: \"%s\", length %d then %d", i, name, len, got);
        MPI_Info info;
        MPI_Session_get_pset_info(s, name, &info);
        int mpi_size = info_int(info, "mpi_size");
        MPI_Info_free(&info);
        if (!strcmp(name, "mpi://WORLD")) {
            world = 1;
            CHECK(mpi_size == size, "mpi://WORLD: mpi_size %d, expected %d", mpi_size, size);
        } else if (!strcmp(name, "mpi://SELF")) {
            self = 1;
            CHECK(mpi_size == 1, "mpi://SELF: mpi_size %d, expected 1", mpi_size);
        }
    }
    CHECK(world && self, "mpi://WORLD %s, mpi://SELF %s", world ? "found" : "missing", self ? "found" : "missing");
    /* a name cut to the buffer */
    char cut[5];
    int len = (int)sizeof cut;
    MPI_Session_get_nth_pset(s, MPI_INFO_NULL, 0, &len, cut);
    CHECK(strlen(cut) == sizeof cut - 1, "a pset name cut to %zu bytes is \"%s\"", sizeof cut, cut);
}

static MPI_Comm from_group(MPI_Group g, const char *tag)
{
    MPI_Comm c = MPI_COMM_NULL;
    int rc = MPI_Comm_create_from_group(g, tag, MPI_INFO_NULL, MPI_ERRORS_RETURN, &c);
    CHECK(rc == MPI_SUCCESS && c != MPI_COMM_NULL, "MPI_Comm_create_from_group(\"%s\") returned %d", tag, rc);
    return c;
}

/* Sum of ranks, and a ring exchange of world ranks, over c whose rank i is world rank world_of[i]. */
static void exercise(MPI_Comm c, const int *world_of, const char *what)
{
    int n = -1, r = -1;
    MPI_Comm_size(c, &n);
    MPI_Comm_rank(c, &r);
    int sum = -1, mine = world_of[r];
    MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, c);
    int want = 0;
    for (int i = 0; i < n; i++) want += world_of[i];
    CHECK(sum == want, "%s: MPI_Allreduce sum %d, expected %d", what, sum, want);
    int got = -1, from = (r + n - 1) % n;
    MPI_Status st;
    MPI_Sendrecv(&mine, 1, MPI_INT, (r + 1) % n, 7, &got, 1, MPI_INT, from, 7, c, &st);
    CHECK(got == world_of[from] && st.MPI_SOURCE == from, "%s: got %d from %d, expected %d from %d", what, got,
          st.MPI_SOURCE, world_of[from], from);
    int root_val = r == 0 ? 1000 + world_of[0] : -1;
    MPI_Bcast(&root_val, 1, MPI_INT, 0, c);
    CHECK(root_val == 1000 + world_of[0], "%s: MPI_Bcast gave %d", what, root_val);
}

/* A session opened and closed again, with a communicator. */
static void session_round(int round)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm c = from_group(g, "org.gpumpi.test.sessions.round");
    int v = round * size + rank, total = -1;
    MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, c);
    CHECK(total == round * size * size + size * (size - 1) / 2, "round %d: sum %d", round, total);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
}

/* Sessions only: MPI_Init not called. Returns a session still open. */
static MPI_Session sessions_alone(void)
{
    int flag = -1;
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized says %d with only a session open", flag);

    MPI_Session s1 = MPI_SESSION_NULL, s2 = MPI_SESSION_NULL;
    MPI_Info want;
    MPI_Info_create(&want);
    MPI_Info_set(want, "thread_level", "MPI_THREAD_FUNNELED");
    int rc = MPI_Session_init(want, MPI_ERRORS_RETURN, &s1);
    MPI_Info_free(&want);
    CHECK(rc == MPI_SUCCESS && s1 != MPI_SESSION_NULL, "MPI_Session_init returned %d", rc);
    MPI_Initialized(&flag);
    CHECK(flag == 0, "MPI_Initialized says %d with only a session open", flag);
    MPI_Finalized(&flag);
    CHECK(flag == 0, "MPI_Finalized says %d with only a session open", flag);

    MPI_Group world;
    MPI_Group_from_session_pset(s1, "mpi://WORLD", &world);
    MPI_Group_size(world, &size);
    MPI_Group_rank(world, &rank);

    MPI_Info used;
    MPI_Session_get_info(s1, &used);
    char level[64] = "";
    MPI_Info_get(used, "thread_level", sizeof level - 1, level, &flag);
    MPI_Info_free(&used);
    /* at least the level asked for (MPICH grants MPI_THREAD_MULTIPLE) */
    CHECK(flag && (!strcmp(level, "MPI_THREAD_FUNNELED") || !strcmp(level, "MPI_THREAD_SERIALIZED") ||
                   !strcmp(level, "MPI_THREAD_MULTIPLE")),
          "session thread_level \"%s\", asked for MPI_THREAD_FUNNELED", level);
    check_psets(s1);

    /* an unknown process set is an error, returned (MPI_ERRORS_RETURN);
     * MPICH 4.0.2 ends the job whatever the session's handler says */
    MPI_Group none = MPI_GROUP_NULL;
#ifndef MPICH_VERSION
    rc = MPI_Group_from_session_pset(s1, "mpi://NOWHERE", &none);
    int cls = -1;
    MPI_Error_class(rc, &cls);
    CHECK(rc != MPI_SUCCESS && cls == MPI_ERR_ARG, "unknown pset: returned %d (class %d)", rc, cls);
#endif

    int *ids = mt_alloc(sizeof(int) * (size_t)size);
    for (int i = 0; i < size; i++) ids[i] = i;
    MPI_Comm wcomm = from_group(world, "org.gpumpi.test.sessions.world");
    int r = -1, n = -1;
    MPI_Comm_rank(wcomm, &r);
    MPI_Comm_size(wcomm, &n);
    CHECK(r == rank && n == size, "world communicator: rank %d of %d, expected %d of %d", r, n, rank, size);
    MPI_Errhandler eh;
    MPI_Comm_get_errhandler(wcomm, &eh);
    CHECK(eh == MPI_ERRORS_RETURN, "the new communicator's error handler is not the one passed");
    MPI_Errhandler_free(&eh);
    exercise(wcomm, ids, "world");

    /* a second session at the same time; its halves share one tag (disjoint groups) */
    rc = MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s2);
    CHECK(rc == MPI_SUCCESS && s2 != s1, "second MPI_Session_init returned %d (handle %d, first %d)", rc, (int)s2,
          (int)s1);
    MPI_Group world2, half, rev;
    MPI_Group_from_session_pset(s2, "mpi://WORLD", &world2);
    int nh = 0, *hl = mt_alloc(sizeof(int) * (size_t)size);
    for (int i = rank % 2; i < size; i += 2) hl[nh++] = i;
    MPI_Group_incl(world2, nh, hl, &half);
    MPI_Comm hcomm = from_group(half, "org.gpumpi.test.sessions.half");
    MPI_Comm_size(hcomm, &n);
    MPI_Comm_rank(hcomm, &r);
    CHECK(n == nh && hl[r] == rank, "half: rank %d of %d", r, n);
    exercise(hcomm, hl, "half");
    for (int i = 0; i < size; i++) hl[i] = size - 1 - i;
    MPI_Group_incl(world2, size, hl, &rev);
    MPI_Comm rcomm = from_group(rev, "org.gpumpi.test.sessions.reversed");
    MPI_Comm_rank(rcomm, &r);
    CHECK(r == size - 1 - rank, "reversed: rank %d, expected %d", r, size - 1 - rank);
    exercise(rcomm, hl, "reversed");

    /* the same group and tag again, while the first is alive: a new context */
    MPI_Comm wcomm2 = from_group(world, "org.gpumpi.test.sessions.world");
    int a = rank, b = -1;
    if (size > 1) {
        /* rank 0 sends on wcomm2 first, then on wcomm: the receives in the other order must still match */
        if (rank == 0) {
            int x = 11, y = 22;
            MPI_Send(&x, 1, MPI_INT, 1, 0, wcomm2);
            MPI_Send(&y, 1, MPI_INT, 1, 0, wcomm);
        } else if (rank == 1) {
            MPI_Recv(&a, 1, MPI_INT, 0, 0, wcomm, MPI_STATUS_IGNORE);
            MPI_Recv(&b, 1, MPI_INT, 0, 0, wcomm2, MPI_STATUS_IGNORE);
            CHECK(a == 22 && b == 11, "two communicators from one tag share traffic: got %d and %d", a, b);
        }
    }

    /* mpi://SELF: a communicator of one */
    MPI_Group selfg;
    MPI_Group_from_session_pset(s2, "mpi://self", &selfg); /* case does not matter in MPICH */
    MPI_Group_size(selfg, &n);
    CHECK(n == 1, "mpi://SELF group of %d", n);
    MPI_Comm scomm = from_group(selfg, "org.gpumpi.test.sessions.self");
    MPI_Request req;
    int back = -1, sent = 100 + rank;
    MPI_Irecv(&back, 1, MPI_INT, 0, 3, scomm, &req);
    MPI_Send(&sent, 1, MPI_INT, 0, 3, scomm);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    CHECK(back == sent, "self: got %d, expected %d", back, sent);

    /* an intercommunicator between the even and odd ranks */
    if (size > 1) {
        MPI_Group other;
        int no = 0;
        for (int i = 1 - rank % 2; i < size; i += 2) hl[no++] = i;
        MPI_Group_incl(world2, no, hl, &other);
        MPI_Comm ic = MPI_COMM_NULL;
        rc = MPI_Intercomm_create_from_groups(half, 0, other, 0, "org.gpumpi.test.sessions.inter", MPI_INFO_NULL,
                                              MPI_ERRORS_RETURN, &ic);
        CHECK(rc == MPI_SUCCESS, "MPI_Intercomm_create_from_groups returned %d", rc);
        int rs = -1, inter = 0;
        MPI_Comm_remote_size(ic, &rs);
        MPI_Comm_test_inter(ic, &inter);
        CHECK(inter && rs == no, "intercommunicator: inter %d, remote size %d, expected %d", inter, rs, no);
        MPI_Comm_rank(ic, &r);
        if (r < rs) { /* partner: the same local rank on the other side */
            int got = -1;
            MPI_Sendrecv(&rank, 1, MPI_INT, r, 5, &got, 1, MPI_INT, r, 5, ic, MPI_STATUS_IGNORE);
            CHECK(got == hl[r], "intercommunicator: got %d from remote %d, expected %d", got, r, hl[r]);
        }
        MPI_Comm_free(&ic);
        MPI_Group_free(&other);
    }

    /* session error handlers */
    MPI_Errhandler seh, got_eh;
    MPI_Session_create_errhandler(session_handler, &seh);
    MPI_Session_set_errhandler(s2, seh);
    MPI_Session_get_errhandler(s2, &got_eh);
    CHECK(got_eh == seh, "MPI_Session_get_errhandler gave %d, set %d", (int)got_eh, (int)seh);
    MPI_Errhandler_free(&got_eh);
    MPI_Session_call_errhandler(s2, MPI_ERR_OTHER);
    CHECK(handler_calls == 1 && handler_code == MPI_ERR_OTHER && handler_session == s2,
          "session handler: %d calls, code %d, session %d", handler_calls, handler_code, (int)handler_session);
#ifndef MPICH_VERSION
    rc = MPI_Group_from_session_pset(s2, "no such set", &none);
    CHECK(rc != MPI_SUCCESS && handler_calls == 2, "an error on the session: returned %d, handler called %d times", rc,
          handler_calls);
#endif
    MPI_Errhandler_free(&seh);
    CHECK(MPI_Session_f2c(MPI_Session_c2f(s2)) == s2, "MPI_Session_c2f/f2c do not round-trip");

    MPI_Comm_free(&scomm);
    MPI_Comm_free(&rcomm);
    MPI_Comm_free(&hcomm);
    MPI_Comm_free(&wcomm2);
    MPI_Comm_free(&wcomm);
    MPI_Group_free(&selfg);
    MPI_Group_free(&rev);
    MPI_Group_free(&half);
    MPI_Group_free(&world2);
    MPI_Group_free(&world);
    MPI_Session_finalize(&s2);
    CHECK(s2 == MPI_SESSION_NULL, "MPI_Session_finalize left the handle %d", (int)s2);
    /* sessions in turn beside s1, then with none left open (MPICH 4.0.2
     * crashes in MPI_Session_init and MPI_Init once its last session has
     * closed: there s1 stays open into MPI_Init) */
    for (int round = 0; round < 3; round++) session_round(round);
#ifndef MPICH_VERSION
    MPI_Session_finalize(&s1);
    session_round(3);
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s1);
#endif
    free(hl);
    free(ids);
    return s1;
}

/* A session beside the world model. */
static void session_with_world(void)
{
    MPI_Session s;
    MPI_Group g;
    MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &s);
    MPI_Group_from_session_pset(s, "mpi://WORLD", &g);
    MPI_Comm c = from_group(g, "org.gpumpi.test.sessions.beside");
    int cmp = -1;
    MPI_Comm_compare(c, MPI_COMM_WORLD, &cmp);
    CHECK(cmp == MPI_CONGRUENT, "session world vs MPI_COMM_WORLD: %d, expected MPI_CONGRUENT", cmp);
    int v = rank + 1, total = -1;
    MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, c);
    CHECK(total == size * (size + 1) / 2, "beside the world: sum %d", total);
    MPI_Comm_free(&c);
    MPI_Group_free(&g);
    MPI_Session_finalize(&s);
    int flag = 0;
    MPI_Initialized(&flag);
    CHECK(flag == 1, "MPI_Initialized says %d after a session closed inside MPI_Init", flag);
}

int main(int argc, char **argv)
{
    MPI_Session open = sessions_alone();
    mt_init(&argc, &argv);
    session_with_world();
    MPI_Session_finalize(&open);
    return mt_finish();
}
