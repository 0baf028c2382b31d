/* Packing and unpacking: running a datatype's program (datatype.h) over
 * the user's buffer. A step's blocks are moved by a tight loop, in
 * 8- or 4-byte words when the addresses allow; a contiguous type is one
 * copy, and a type of runs only (a vector of doubles, a struct) one
 * strided loop per step over all the elements. */
#include "datatype.h"
#include "gpumpi/shim_string.h"

/* count blocks of len bytes, src + k * sstride -> dst + k * dstride */
GPUMPI_FN static void gp_copy_blocks(char *dst, MPI_Aint dstride, const char *src, MPI_Aint sstride, MPI_Aint count,
                                     MPI_Aint len)
{
    uintptr_t mix = (uintptr_t)dst | (uintptr_t)src | (uintptr_t)dstride | (uintptr_t)sstride | (uintptr_t)len;
    if ((mix & 7) == 0) {
        MPI_Aint w = len / 8;
        if (w == 1) {
            for (MPI_Aint k = 0; k < count; k++)
                *(uint64_t *)(dst + k * dstride) = *(const uint64_t *)(src + k * sstride);
        } else {
            for (MPI_Aint k = 0; k < count; k++) {
                uint64_t *d = (uint64_t *)(dst + k * dstride);
                const uint64_t *s = (const uint64_t *)(src + k * sstride);
                for (MPI_Aint i = 0; i < w; i++) d[i] = s[i];
            }
        }
    } else if ((mix & 3) == 0) {
        MPI_Aint w = len / 4;
        for (MPI_Aint k = 0; k < count; k++) {
            uint32_t *d = (uint32_t *)(dst + k * dstride);
            const uint32_t *s = (const uint32_t *)(src + k * sstride);
            for (MPI_Aint i = 0; i < w; i++) d[i] = s[i];
        }
    } else if (len < 64) { /* short unaligned blocks: bytes, no call per block */
        for (MPI_Aint k = 0; k < count; k++) {
            char *d = dst + k * dstride;
            const char *s = src + k * sstride;
            for (MPI_Aint i = 0; i < len; i++) d[i] = s[i];
        }
    } else {
        for (MPI_Aint k = 0; k < count; k++) gp_memcpy(dst + k * dstride, src + k * sstride, (size_t)len);
    }
}

/* n whole elements of a type of runs only (depth 0), stride bytes apart,
 * to or from packed bytes at p; returns the end of the packed bytes. It
 * moves a step at a time across all n elements (step s of element i is at
 * base + i * stride + off and at p + i * size + the bytes of the steps
 * before s): each step is one strided loop, however many steps an element
 * has. The order of the copies changes, not what goes where. */
GPUMPI_FN static char *gp_move_flat(const gp_tobj *o, char *base, char *p, MPI_Aint n, MPI_Aint stride, int unpack)
{
    MPI_Aint size = o->size;
    const gp_tent *P = gp_prog(o);
    for (int s = 0; s < o->nent; s++) {
        const gp_tent *e = &P[s];
        if (e->count == 1) {
            if (unpack)
                gp_copy_blocks(base + e->off, stride, p, size, n, e->len);
            else
                gp_copy_blocks(p, size, base + e->off, stride, n, e->len);
        } else {
            for (MPI_Aint i = 0; i < n; i++) {
                char *b = base + i * stride + e->off, *q = p + i * size;
                if (unpack)
                    gp_copy_blocks(b, e->stride, q, e->len, e->count, e->len);
                else
                    gp_copy_blocks(q, e->len, b, e->stride, e->count, e->len);
            }
        }
        p += e->count * e->len;
    }
    return p + (n - 1) * size;
}

/* One whole element at base to or from packed bytes at p; returns the end
 * of the packed bytes. Nested steps are walked with an explicit stack
 * (programs are at most GP_MAX_NEST deep), not by recursion: nvlink
 * could not size the rank kernel's stack otherwise. */
typedef struct gp_frame {
    const gp_tobj *t;
    char *base;
    int i;        /* the step */
    MPI_Aint k;   /* the block within a nest step */
} gp_frame;

GPUMPI_FN static char *gp_move_elem(const gp_tobj *t, char *base, char *p, int unpack)
{
    if (t->depth == 0) return gp_move_flat(t, base, p, 1, 0, unpack);
    gp_frame st[GP_MAX_NEST];
    int d = 0;
    st[0].t = t;
    st[0].base = base;
    st[0].i = 0;
    st[0].k = 0;
    while (d >= 0) {
        gp_frame *f = &st[d];
        if (f->i == f->t->nent) {
            d--;
            continue;
        }
        const gp_tent *e = &gp_prog(f->t)[f->i];
        if (!e->child) {
            if (unpack)
                gp_copy_blocks(f->base + e->off, e->stride, p, e->len, e->count, e->len);
            else
                gp_copy_blocks(p, e->len, f->base + e->off, e->stride, e->count, e->len);
            p += e->count * e->len;
            f->i++;
        } else if (e->child->depth == 0) { /* the innermost level: strided loops, no frames */
            p = gp_move_flat(e->child, f->base + e->off, p, e->count, e->stride, unpack);
            f->i++;
        } else if (f->k == e->count) {
            f->k = 0;
            f->i++;
        } else {
            gp_frame *c = &st[++d];
            c->t = e->child;
            c->base = f->base + e->off + f->k++ * e->stride;
            c->i = 0;
            c->k = 0;
        }
    }
    return p;
}

/* The first *left bytes of one element (fewer than its size). Only the
 * last block it reaches is partly there, so it descends, never returns. */
GPUMPI_FN static void gp_unpack_part(const gp_tobj *t, char *base, const char *in, MPI_Aint left)
{
    while (left > 0) {
        const gp_tent *P = gp_prog(t);
        const gp_tobj *into = 0;
        for (int i = 0; i < t->nent && left > 0 && !into; i++) {
            const gp_tent *e = &P[i];
            MPI_Aint whole = left / e->len;
            if (whole > e->count) whole = e->count;
            if (!e->child) {
                gp_copy_blocks(base + e->off, e->stride, in, e->len, whole, e->len);
                in += whole * e->len;
            } else {
                for (MPI_Aint k = 0; k < whole; k++)
                    in = gp_move_elem(e->child, base + e->off + k * e->stride, (char *)in, 1);
            }
            left -= whole * e->len;
            if (whole < e->count && left > 0) { /* ends inside block `whole` */
                char *at = base + e->off + whole * e->stride;
                if (!e->child) {
                    gp_memcpy(at, in, (size_t)left);
                    return;
                }
                into = e->child;
                base = at;
            }
        }
        if (!into) return;
        t = into;
    }
}

/* n whole elements from base to or from packed bytes at p */
GPUMPI_FN static void gp_move_many(const gp_tobj *o, char *base, char *p, MPI_Aint n, int unpack)
{
    MPI_Aint ext = gp_ext(o);
    if (o->depth == 0) {
        gp_move_flat(o, base, p, n, ext, unpack);
        return;
    }
    for (MPI_Aint i = 0; i < n; i++) p = gp_move_elem(o, base + i * ext, p, unpack);
}

GPUMPI_FN void gp_type_pack(const void *buf, int count, MPI_Datatype t, void *out)
{
    const gp_tobj *o = gp_tobj_of(t);
    if (!o || count <= 0 || o->size == 0) return;
    if (o->dense)
        gp_memcpy(out, (const char *)buf + o->run_off, (size_t)count * (size_t)o->size);
    else
        gp_move_many(o, (char *)buf, (char *)out, count, 0);
}

GPUMPI_FN void gp_type_unpack(const void *in, size_t bytes, void *buf, int count, MPI_Datatype t)
{
    const gp_tobj *o = gp_tobj_of(t);
    if (!o || count <= 0 || o->size == 0) return;
    MPI_Aint size = o->size, whole = (MPI_Aint)bytes / size;
    if (whole > count) whole = count;
    char *base = (char *)buf;
    if (o->dense) {
        gp_memcpy(base + o->run_off, in, bytes < (size_t)count * (size_t)size ? bytes : (size_t)count * (size_t)size);
        return;
    }
    gp_move_many(o, base, (char *)in, whole, 1);
    MPI_Aint left = (MPI_Aint)bytes - whole * size;
    if (whole < count && left > 0) gp_unpack_part(o, base + whole * gp_ext(o), (const char *)in + whole * size, left);
}

/* ---- MPI_Pack and MPI_Unpack: the same format as a message ------------- */

GPUMPI_FN int MPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int *size)
{
    GP_TRY(gp_comm_check("MPI_Pack_size", comm));
    GP_TRY(gp_type_check(comm, "MPI_Pack_size", datatype, incount));
    if (!size) return gp_err(comm, "MPI_Pack_size", MPI_ERR_ARG, "the size argument is NULL");
    *size = incount * gp_type_size(datatype);
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Pack(const void *inbuf, int incount, MPI_Datatype datatype, void *outbuf, int outsize,
                       int *position, MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Pack", comm));
    GP_TRY(gp_type_check(comm, "MPI_Pack", datatype, incount));
    if (!position) return gp_err(comm, "MPI_Pack", MPI_ERR_ARG, "the position argument is NULL");
    size_t need = (size_t)incount * (size_t)gp_type_size(datatype);
    if (*position < 0 || outsize < 0 || (size_t)*position + need > (size_t)outsize)
        return gp_err(comm, "MPI_Pack", MPI_ERR_TRUNCATE,
                      "%zu bytes do not fit at position %d of an output buffer of %d bytes", need, *position, outsize);
    const void *first;
    char *at = (char *)outbuf + *position;
    if (gp_type_contiguous(datatype, incount, inbuf, &first))
        gp_memcpy(at, first, need);
    else
        gp_type_pack(inbuf, incount, datatype, at);
    *position += (int)need;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Unpack(const void *inbuf, int insize, int *position, void *outbuf, int outcount,
                         MPI_Datatype datatype, MPI_Comm comm)
{
    GP_TRY(gp_comm_check("MPI_Unpack", comm));
    GP_TRY(gp_type_check(comm, "MPI_Unpack", datatype, outcount));
    if (!position) return gp_err(comm, "MPI_Unpack", MPI_ERR_ARG, "the position argument is NULL");
    size_t need = (size_t)outcount * (size_t)gp_type_size(datatype);
    if (*position < 0 || insize < 0 || (size_t)*position + need > (size_t)insize)
        return gp_err(comm, "MPI_Unpack", MPI_ERR_TRUNCATE,
                      "%zu bytes are not there at position %d of an input buffer of %d bytes", need, *position,
                      insize);
    const void *first;
    const char *at = (const char *)inbuf + *position;
    if (gp_type_contiguous(datatype, outcount, outbuf, &first))
        gp_memcpy((void *)first, at, need);
    else
        gp_type_unpack(at, need, outbuf, outcount, datatype);
    *position += (int)need;
    return MPI_SUCCESS;
}
