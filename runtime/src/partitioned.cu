/* Partitioned communication (MPI-4.0 chapter 4): MPI_Psend_init,
 * MPI_Precv_init, MPI_Pready(_range, _list), MPI_Parrived.
 *
 * A partitioned request is a persistent send or receive request of the
 * whole buffer (partitions * count elements) with the partitions' state
 * beside it (gp_req.part). The send goes as one message once every
 * partition is marked ready; the receive is posted at MPI_Start, and
 * MPI_Parrived answers for the whole message (every partition arrives
 * with it). The two sides' partition counts may differ (MPI-4.0 4.2): only
 * the message has to fit, as for any receive.
 *
 * Partitioned operations match only each other (MPI-4.0 4.2.2), so their
 * messages go in the communicator's collective context, whose tags are
 * schedules' (sequence << 3 | phase 0-2) and a few fixed ones (low bits 5
 * and 6): a partitioned message's tag ends in 7, never one of theirs.
 *
 * They pair in the order of the init calls, whatever the order of the
 * starts: the k-th MPI_Psend_init to a rank with a tag pairs with that
 * rank's k-th MPI_Precv_init from here with that tag. Each side counts its
 * init calls by (context, peer, tag), and the message's tag carries the
 * low 20 bits of the program's tag and k mod 512 (the 29 bits there are).
 * Two requests alive at once between the same ranks whose tags agree in
 * their low 20 bits, or of one tag 512 init calls apart, could pair
 * wrongly. */
#include "requests.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

typedef struct gp_part {
    int partitions;
    int tag;     /* the program's */
    int nready;  /* partitions marked ready since MPI_Start */
    /* then one byte a partition: marked ready? */
} gp_part;

GPUMPI_FN static unsigned char *gp_part_ready(gp_part *p) { return (unsigned char *)(p + 1); }

GPUMPI_FN static int gp_part_wire_tag(int tag, uint32_t k)
{
    return (int)(((((uint32_t)tag & 0xfffffu) | (k & 0x1ffu) << 20) << 3) | 7u);
}

/* The init calls each side has made by (context, peer, tag): a list per
 * rank (gp_rank.part_inits), grown by doubling. */
typedef struct gp_part_key {
    int ctx, peer_world, tag;
    uint32_t inits[2]; /* receives, sends */
} gp_part_key;

typedef struct gp_part_inits {
    int n, cap;
    gp_part_key keys[1]; /* cap of them */
} gp_part_inits;

/* This init call's number among those of its side with the same key. */
GPUMPI_FN static uint32_t gp_part_ordinal(const char *fn, int ctx, int peer_world, int tag, int is_send)
{
    gp_rank *r = gp_self();
    gp_part_inits *t = (gp_part_inits *)r->part_inits;
    for (int i = 0; t && i < t->n; i++) {
        gp_part_key *k = &t->keys[i];
        if (k->ctx == ctx && k->peer_world == peer_world && k->tag == tag) return k->inits[is_send]++;
    }
    if (!t || t->n == t->cap) {
        int cap = t ? 2 * t->cap : 8;
        gp_part_inits *grown =
            (gp_part_inits *)gp_malloc(sizeof(gp_part_inits) + sizeof(gp_part_key) * (size_t)(cap - 1));
        if (!grown) gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d partitioned peers (raise --heap)", cap);
        grown->n = t ? t->n : 0;
        grown->cap = cap;
        if (t) gp_memcpy(grown->keys, t->keys, sizeof(gp_part_key) * (size_t)t->n);
        gp_free(t);
        r->part_inits = t = grown;
    }
    gp_part_key *k = &t->keys[t->n++];
    k->ctx = ctx;
    k->peer_world = peer_world;
    k->tag = tag;
    k->inits[0] = k->inits[1] = 0;
    return k->inits[is_send]++;
}

GPUMPI_FN int gp_part_tag(const gp_req *q) { return q->part->tag; }

/* Both init calls: the persistent request gp_make checks and makes for the
 * whole buffer, moved to the partitioned matching space. */
GPUMPI_FN static int gp_part_init(const char *fn, int kind, const void *buf, int partitions, int count,
                                  MPI_Datatype type, int peer, int tag, MPI_Comm comm, MPI_Request *request)
{
    GP_TRY(gp_comm_check(fn, comm));
    if (partitions < 1) /* MPI-4.0 4.2: one or more */
        return gp_err(comm, fn, MPI_ERR_ARG, "%d partitions (at least one is needed)", partitions);
    if (count < 0) return gp_err(comm, fn, MPI_ERR_COUNT, "negative count %d", count);
    if ((long long)partitions * count > 0x7fffffff)
        return gp_err(comm, fn, MPI_ERR_COUNT, "%d partitions of %d elements is more than %d elements", partitions,
                      count, 0x7fffffff);
    if (kind == GP_REQ_RECV && peer == MPI_ANY_SOURCE)
        return gp_err(comm, fn, MPI_ERR_RANK, "MPI_ANY_SOURCE is not allowed in partitioned communication");
    if (kind == GP_REQ_RECV && tag == MPI_ANY_TAG)
        return gp_err(comm, fn, MPI_ERR_TAG, "MPI_ANY_TAG is not allowed in partitioned communication");
    gp_part *p = (gp_part *)gp_malloc(sizeof(gp_part) + (size_t)partitions);
    if (!p) return gp_fatal(fn, MPI_ERR_NO_MEM, "no device heap left for %d partitions (raise --heap)", partitions);
    MPI_Request h;
    int rc = gp_make(fn, kind, GP_SEND_STANDARD, buf, partitions * count, type, peer, tag, comm, &h, 1);
    if (rc != MPI_SUCCESS) {
        gp_free(p);
        return rc;
    }
    p->partitions = partitions;
    p->tag = tag;
    p->nready = 0;
    gp_req *q = gp_req_at(h);
    q->part = p;
    q->ctx += 1; /* the collective context (see the top of the file) */
    q->tag = gp_part_wire_tag(tag, gp_part_ordinal(fn, q->ctx, q->peer_world, tag, kind == GP_REQ_SEND));
    *request = h;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Psend_init(const void *buf, int partitions, int count, MPI_Datatype datatype, int dest, int tag,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info; /* no hints are taken */
    return gp_part_init("MPI_Psend_init", GP_REQ_SEND, buf, partitions, count, datatype, dest, tag, comm, request);
}

GPUMPI_FN int MPI_Precv_init(void *buf, int partitions, int count, MPI_Datatype datatype, int source, int tag,
                             MPI_Comm comm, MPI_Info info, MPI_Request *request)
{
    (void)info;
    return gp_part_init("MPI_Precv_init", GP_REQ_RECV, buf, partitions, count, datatype, source, tag, comm, request);
}

/* A receive is posted now; a send waits for its partitions (gp_part_mark).
 * Until then the send is active and unfinished, as gp_start leaves one
 * whose receiver has not copied it yet. */
GPUMPI_FN int gp_part_start(int h)
{
    gp_req *q = gp_req_at(h);
    gp_part *p = q->part;
    p->nready = 0;
    gp_memset(gp_part_ready(p), 0, (size_t)p->partitions);
    if (q->kind == GP_REQ_RECV) {
        gp_start(h);
        return MPI_SUCCESS;
    }
    q->active = 1;
    q->done = 0;
    q->pending = 0;
    q->err = MPI_SUCCESS;
    gp_set_status(&q->status, MPI_ANY_SOURCE, MPI_ANY_TAG, 0);
    return MPI_SUCCESS;
}

/* The partitioned send behind request, active, or an error naming fn. */
GPUMPI_FN static int gp_part_send_of(const char *fn, MPI_Request request, gp_req **out)
{
    gp_rank *r = gp_self();
    if (request <= 0 || request > r->nreqs || gp_req_at(request)->kind == GP_REQ_FREE)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_REQUEST, "invalid request handle %d", request);
    gp_req *q = gp_req_at(request);
    if (!gp_req_part(q) || q->kind != GP_REQ_SEND)
        return gp_err(q->comm, fn, MPI_ERR_REQUEST, "request %d is not a partitioned send (MPI_Psend_init)", request);
    if (!q->active)
        return gp_err(q->comm, fn, MPI_ERR_REQUEST,
                      "request %d is not active: partitions are marked ready between MPI_Start and the "
                      "MPI_Wait or MPI_Test that completes it",
                      request);
    *out = q;
    return MPI_SUCCESS;
}

/* Marks one partition ready; the last one sends the message. */
GPUMPI_FN static int gp_part_mark(const char *fn, MPI_Request request, gp_req *q, int partition)
{
    gp_part *p = q->part;
    if (partition < 0 || partition >= p->partitions)
        return gp_err(q->comm, fn, MPI_ERR_ARG, "partition %d is out of range (the request has %d, from 0)",
                      partition, p->partitions);
    if (gp_part_ready(p)[partition])
        return gp_err(q->comm, fn, MPI_ERR_ARG, "partition %d of request %d is already marked ready", partition,
                      request);
    gp_part_ready(p)[partition] = 1;
    if (++p->nready == p->partitions) gp_start(request);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Pready(int partition, MPI_Request request)
{
    gp_req *q;
    GP_TRY(gp_part_send_of("MPI_Pready", request, &q));
    return gp_part_mark("MPI_Pready", request, q, partition);
}

GPUMPI_FN int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
    gp_req *q;
    GP_TRY(gp_part_send_of("MPI_Pready_range", request, &q));
    if (partition_low > partition_high)
        return gp_err(q->comm, "MPI_Pready_range", MPI_ERR_ARG, "the range %d..%d is empty", partition_low,
                      partition_high);
    for (int i = partition_low; i <= partition_high; i++) GP_TRY(gp_part_mark("MPI_Pready_range", request, q, i));
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
    gp_req *q;
    GP_TRY(gp_part_send_of("MPI_Pready_list", request, &q));
    if (length < 0 || (length > 0 && !array_of_partitions))
        return gp_err(q->comm, "MPI_Pready_list", MPI_ERR_ARG, "invalid list (length %d, array %p)", length,
                      (const void *)array_of_partitions);
    for (int i = 0; i < length; i++) GP_TRY(gp_part_mark("MPI_Pready_list", request, q, array_of_partitions[i]));
    return MPI_SUCCESS;
}

/* An inactive request's partitions count as arrived (MPICH's answer, and
 * MPI-4.1's): the last round's data is in the buffer. */
GPUMPI_FN int MPI_Parrived(MPI_Request request, int partition, int *flag)
{
    gp_rank *r = gp_self();
    if (request <= 0 || request > r->nreqs || gp_req_at(request)->kind == GP_REQ_FREE)
        return gp_err(MPI_COMM_WORLD, "MPI_Parrived", MPI_ERR_REQUEST, "invalid request handle %d", request);
    gp_req *q = gp_req_at(request);
    if (!gp_req_part(q) || q->kind != GP_REQ_RECV)
        return gp_err(q->comm, "MPI_Parrived", MPI_ERR_REQUEST, "request %d is not a partitioned receive (MPI_Precv_init)",
                      request);
    if (!flag) return gp_err(q->comm, "MPI_Parrived", MPI_ERR_ARG, "the flag argument is NULL");
    if (partition < 0 || partition >= q->part->partitions)
        return gp_err(q->comm, "MPI_Parrived", MPI_ERR_ARG, "partition %d is out of range (the request has %d, from 0)",
                      partition, q->part->partitions);
    if (!q->active) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    return MPI_Request_get_status(request, flag, MPI_STATUS_IGNORE);
}

GPUMPI_FN int gp_part_check_wait(const char *fn, int count, const MPI_Request requests[])
{
    gp_rank *r = gp_self();
    for (int i = 0; i < count; i++) {
        MPI_Request h = requests[i];
        if (h <= 0 || h > r->nreqs) continue;
        gp_req *q = gp_req_at(h);
        if (q->kind != GP_REQ_SEND || !q->part || !q->active || q->part->nready == q->part->partitions) continue;
        return gp_err(q->comm, fn, MPI_ERR_REQUEST,
                      "partitioned send request %d has %d of its %d partitions not marked ready (MPI_Pready): "
                      "the wait would never end",
                      h, q->part->partitions - q->part->nready, q->part->partitions);
    }
    return MPI_SUCCESS;
}
