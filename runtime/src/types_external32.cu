/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size: the
 * "external32" representation, which any MPI reads the same: big-endian,
 * IEEE floating point, every basic type at the fixed size the standard's
 * table gives it (long: 4 bytes, wchar_t: 2, long double: 16, IEEE quad),
 * no padding in pairs.
 *
 * The data is packed natively first (types_pack.cu), then that stream is
 * converted element by element. A type of one basic type converts as an
 * array of it; a mixed one is walked through its description (datatype.h)
 * to learn which basic type comes next. */
#include "datatype.h"
#include "gpumpi/shim_stdlib.h"
#include "gpumpi/shim_string.h"

enum { GP_X_RAW, GP_X_INT, GP_X_UINT, GP_X_FLOAT, GP_X_LDBL };

/* One part of a basic type: n values of kind, nsize bytes each here, xsize
 * bytes each in external32. */
typedef struct gp_x32 {
    unsigned char kind, nsize, xsize, n;
} gp_x32;

GPUMPI_FN static inline gp_x32 gp_x(int kind, size_t nsize, int xsize, int n)
{
    gp_x32 c = {(unsigned char)kind, (unsigned char)nsize, (unsigned char)xsize, (unsigned char)n};
    return c;
}
#define GP_X gp_x

/* The parts of predefined type p (1 or 2); 0 if it has no data. */
GPUMPI_FN static int gp_x32_layout(MPI_Datatype p, gp_x32 *c)
{
    switch (p) {
    case MPI_CHAR: case MPI_SIGNED_CHAR: case MPI_UNSIGNED_CHAR: case MPI_BYTE: case MPI_PACKED:
    case MPI_INT8_T: case MPI_UINT8_T: case MPI_C_BOOL: case MPI_CXX_BOOL: case MPI_CHARACTER:
    case MPI_INTEGER1:
        c[0] = GP_X(GP_X_RAW, 1, 1, 1); return 1;
    case MPI_SHORT: case MPI_INT16_T: case MPI_INTEGER2: c[0] = GP_X(GP_X_INT, 2, 2, 1); return 1;
    case MPI_UNSIGNED_SHORT: case MPI_UINT16_T: c[0] = GP_X(GP_X_UINT, 2, 2, 1); return 1;
    case MPI_WCHAR: c[0] = GP_X(GP_X_UINT, sizeof(wchar_t), 2, 1); return 1;
    case MPI_INT: case MPI_INT32_T: case MPI_INTEGER: case MPI_INTEGER4: case MPI_LOGICAL:
        c[0] = GP_X(GP_X_INT, 4, 4, 1); return 1;
    case MPI_UNSIGNED: case MPI_UINT32_T: c[0] = GP_X(GP_X_UINT, 4, 4, 1); return 1;
    case MPI_LONG: c[0] = GP_X(GP_X_INT, sizeof(long), 4, 1); return 1;
    case MPI_UNSIGNED_LONG: c[0] = GP_X(GP_X_UINT, sizeof(long), 4, 1); return 1;
    case MPI_LONG_LONG_INT: case MPI_INT64_T: case MPI_INTEGER8: case MPI_AINT: case MPI_OFFSET: case MPI_COUNT:
        c[0] = GP_X(GP_X_INT, 8, 8, 1); return 1;
    case MPI_UNSIGNED_LONG_LONG: case MPI_UINT64_T: c[0] = GP_X(GP_X_UINT, 8, 8, 1); return 1;
    case MPI_FLOAT: case MPI_REAL: case MPI_REAL4: c[0] = GP_X(GP_X_FLOAT, 4, 4, 1); return 1;
    case MPI_DOUBLE: case MPI_DOUBLE_PRECISION: case MPI_REAL8: c[0] = GP_X(GP_X_FLOAT, 8, 8, 1); return 1;
    case MPI_LONG_DOUBLE: c[0] = GP_X(GP_X_LDBL, GP_LDBL_SIZE, 16, 1); return 1;
    case MPI_C_FLOAT_COMPLEX: case MPI_COMPLEX: case MPI_COMPLEX8: case MPI_CXX_FLOAT_COMPLEX:
    case MPI_2REAL:
        c[0] = GP_X(GP_X_FLOAT, 4, 4, 2); return 1;
    case MPI_C_DOUBLE_COMPLEX: case MPI_DOUBLE_COMPLEX: case MPI_COMPLEX16: case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_2DOUBLE_PRECISION:
        c[0] = GP_X(GP_X_FLOAT, 8, 8, 2); return 1;
    case MPI_C_LONG_DOUBLE_COMPLEX: case MPI_CXX_LONG_DOUBLE_COMPLEX:
        c[0] = GP_X(GP_X_LDBL, GP_LDBL_SIZE, 16, 2); return 1;
    case MPI_2INT: case MPI_2INTEGER: c[0] = GP_X(GP_X_INT, 4, 4, 2); return 1;
    }
    /* value-index pairs: the value, then an int */
    c[1] = GP_X(GP_X_INT, 4, 4, 1);
    switch (p) {
    case MPI_FLOAT_INT: c[0] = GP_X(GP_X_FLOAT, 4, 4, 1); return 2;
    case MPI_DOUBLE_INT: c[0] = GP_X(GP_X_FLOAT, 8, 8, 1); return 2;
    case MPI_LONG_INT: c[0] = GP_X(GP_X_INT, sizeof(long), 4, 1); return 2;
    case MPI_SHORT_INT: c[0] = GP_X(GP_X_INT, 2, 2, 1); return 2;
    case MPI_LONG_DOUBLE_INT: c[0] = GP_X(GP_X_LDBL, GP_LDBL_SIZE, 16, 1); return 2;
    }
    return 0; /* MPI_LB, MPI_UB */
}

/* ---- long double <-> IEEE quad (as two 64-bit halves) ------------------ */

#if GP_LDBL_SIZE == 16
/* x87 extended: 64-bit significand with its integer bit, then sign and a
 * 15-bit exponent of the same bias as quad's: only the significand moves. */
GPUMPI_FN static void gp_ldbl_to_quad(const unsigned char *in, uint64_t *hi, uint64_t *lo)
{
    uint64_t m;
    uint16_t se;
    gp_memcpy(&m, in, 8);
    gp_memcpy(&se, in + 8, 2);
    uint64_t frac = m & 0x7fffffffffffffffULL;
    *hi = (uint64_t)se << 48 | frac >> 15;
    *lo = frac << 49;
}

GPUMPI_FN static void gp_quad_to_ldbl(uint64_t hi, uint64_t lo, unsigned char *out)
{
    uint16_t se = (uint16_t)(hi >> 48);
    uint64_t frac = (hi & 0xffffffffffffULL) << 15 | lo >> 49; /* the 63 bits x87 keeps */
    uint64_t m = ((se & 0x7fff) ? 1ULL << 63 : 0) | frac;
    gp_memset(out, 0, GP_LDBL_SIZE);
    gp_memcpy(out, &m, 8);
    gp_memcpy(out + 8, &se, 2);
}
#else
/* The device's long double is a double: widen it, or round quad's
 * significand to 52 bits (to nearest, ties to even). */
GPUMPI_FN static void gp_ldbl_to_quad(const unsigned char *in, uint64_t *hi, uint64_t *lo)
{
    uint64_t d;
    gp_memcpy(&d, in, 8);
    uint64_t sign = d >> 63, e = d >> 52 & 0x7ff, f = d & 0xfffffffffffffULL;
    uint64_t qe;
    if (e == 0x7ff) {
        qe = 0x7fff;
    } else if (e == 0 && f == 0) {
        qe = 0;
    } else {
        long long ue = (long long)e - 1023;
        if (e == 0) { /* subnormal: normalize, quad has the range */
            ue = -1022;
            while (!(f & (1ULL << 52))) {
                f <<= 1;
                ue--;
            }
            f &= 0xfffffffffffffULL;
        }
        qe = (uint64_t)(ue + 16383);
    }
    *hi = sign << 63 | qe << 48 | f >> 4;
    *lo = f << 60;
}

GPUMPI_FN static void gp_quad_to_ldbl(uint64_t hi, uint64_t lo, unsigned char *out)
{
    uint64_t sign = hi >> 63, qe = hi >> 48 & 0x7fff;
    uint64_t f = (hi & 0xffffffffffffULL) << 4 | lo >> 60, rest = lo << 4; /* 52 bits kept, the rest below */
    uint64_t d;
    long long e = (long long)qe - 16383 + 1023;
    if (qe == 0x7fff) {
        d = 0x7ffULL << 52 | (f ? (f | 1ULL << 51) : 0); /* a NaN stays a NaN */
    } else if (qe == 0 || e < -52) {
        d = 0;
    } else {
        if (e <= 0) { /* subnormal as a double: shift the significand down */
            uint64_t m = f | 1ULL << 52;
            int sh = (int)(1 - e);
            rest = (m << (64 - sh)) | (rest ? 1 : 0);
            f = m >> sh;
            e = 0;
        }
        d = (uint64_t)e << 52 | f;
        if (rest > 0x8000000000000000ULL || (rest == 0x8000000000000000ULL && (d & 1))) d++; /* may carry into e */
        if ((d >> 52) >= 0x7ff) d = 0x7ffULL << 52;
    }
    d |= sign << 63;
    gp_memcpy(out, &d, 8);
}
#endif

/* ---- one value -------------------------------------------------------- */

GPUMPI_FN static void gp_x32_pack_value(const gp_x32 *c, const unsigned char *in, unsigned char *out)
{
    if (c->kind == GP_X_RAW) {
        *out = *in;
    } else if (c->kind == GP_X_LDBL) {
        uint64_t hi, lo;
        gp_ldbl_to_quad(in, &hi, &lo);
        for (int i = 0; i < 8; i++) {
            out[i] = (unsigned char)(hi >> (56 - 8 * i));
            out[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
        }
    } else { /* integers keep their low xsize bytes; IEEE values are their bytes */
        uint64_t v = 0;
        gp_memcpy(&v, in, c->nsize);
        for (int i = 0; i < c->xsize; i++) out[i] = (unsigned char)(v >> (8 * (c->xsize - 1 - i)));
    }
}

GPUMPI_FN static void gp_x32_unpack_value(const gp_x32 *c, const unsigned char *in, unsigned char *out)
{
    if (c->kind == GP_X_RAW) {
        *out = *in;
    } else if (c->kind == GP_X_LDBL) {
        uint64_t hi = 0, lo = 0;
        for (int i = 0; i < 8; i++) {
            hi = hi << 8 | in[i];
            lo = lo << 8 | in[8 + i];
        }
        gp_quad_to_ldbl(hi, lo, out);
    } else {
        uint64_t v = 0;
        for (int i = 0; i < c->xsize; i++) v = v << 8 | in[i];
        int bits = 8 * c->xsize;
        if (c->kind == GP_X_INT && bits < 64 && (v >> (bits - 1) & 1)) v |= ~0ULL << bits; /* sign-extend a long */
        gp_memcpy(out, &v, c->nsize);
    }
}

/* ---- the stream ------------------------------------------------------- */

typedef struct gp_x32_cursor {
    const unsigned char *in;
    unsigned char *out;
    MPI_Aint xbytes; /* external32 bytes so far */
    int mode;        /* 0: measure only, 1: pack, 2: unpack */
} gp_x32_cursor;

/* n elements of predefined type p */
GPUMPI_FN static void gp_x32_run(gp_x32_cursor *cur, MPI_Datatype p, MPI_Aint n)
{
    gp_x32 c[2];
    int nc = gp_x32_layout(p, c);
    MPI_Aint xsize = 0;
    for (int j = 0; j < nc; j++) xsize += c[j].n * c[j].xsize;
    cur->xbytes += n * xsize;
    if (cur->mode == 0) return;
    int unpack = cur->mode == 2;
    for (MPI_Aint i = 0; i < n; i++)
        for (int j = 0; j < nc; j++)
            for (int k = 0; k < c[j].n; k++) {
                if (unpack)
                    gp_x32_unpack_value(&c[j], cur->in, cur->out);
                else
                    gp_x32_pack_value(&c[j], cur->in, cur->out);
                cur->in += unpack ? c[j].xsize : c[j].nsize;
                cur->out += unpack ? c[j].nsize : c[j].xsize;
            }
}

#define GP_X32_DEPTH GP_MAX_NEST /* description levels of a mixed type (a frame each on the device stack) */

/* reps elements of t, in packed order: a type of one basic type at once,
 * a mixed one block by block (a worklist: no recursion on the device). */
GPUMPI_FN static int gp_x32_walk(gp_x32_cursor *cur, const gp_tobj *t, MPI_Aint reps)
{
    struct {
        const gp_tobj *t;
        MPI_Aint rep, reps;
        int b;
    } st[GP_X32_DEPTH];
    int sp = 0;
    for (;;) {
        if (t && t->size > 0 && reps > 0) {
            if (t->basic != MPI_DATATYPE_NULL) {
                gp_x32_run(cur, t->basic, reps * (t->size / gp_tobj_of(t->basic)->size));
            } else {
                if (sp == GP_X32_DEPTH) return MPI_ERR_TYPE;
                st[sp].t = t;
                st[sp].rep = 0;
                st[sp].reps = reps;
                st[sp].b = 0;
                sp++;
            }
        }
        t = 0;
        if (sp == 0) return MPI_SUCCESS;
        const gp_tobj *top = st[sp - 1].t;
        if (st[sp - 1].b == top->nblocks) {
            st[sp - 1].b = 0;
            if (++st[sp - 1].rep == st[sp - 1].reps) sp--;
            continue;
        }
        int b = st[sp - 1].b++;
        t = top->children ? top->children[b] : top->child1;
        reps = top->blocklens ? top->blocklens[b] : top->bl1;
    }
}

/* ---- the calls -------------------------------------------------------- */

GPUMPI_FN static int gp_x32_check(const char *fn, const char *datarep, MPI_Datatype t, int count, const gp_tobj **o)
{
    GP_TRY(gp_check_initialized(fn));
    if (!datarep || gp_strcmp(datarep, "external32") != 0)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "data representation \"%s\" (only \"external32\" is defined)",
                      datarep ? datarep : "(null)");
    GP_TRY(gp_type_check(MPI_COMM_WORLD, fn, t, count));
    *o = gp_tobj_of(t);
    return MPI_SUCCESS;
}

/* count elements of o walked in mode between in and out; *xbytes: the external32 bytes */
GPUMPI_FN static int gp_x32_convert(const char *fn, const gp_tobj *o, int count, const void *in, void *out, int mode,
                                    MPI_Aint *xbytes)
{
    gp_x32_cursor cur = {(const unsigned char *)in, (unsigned char *)out, 0, mode};
    if (gp_x32_walk(&cur, o, count) != MPI_SUCCESS)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TYPE, "datatype nested more than %d levels deep", GP_X32_DEPTH);
    *xbytes = cur.xbytes;
    return MPI_SUCCESS;
}

GPUMPI_FN int MPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint *size)
{
    const gp_tobj *o = 0;
    GP_TRY(gp_x32_check("MPI_Pack_external_size", datarep, datatype, incount, &o));
    if (!size) return gp_err(MPI_COMM_WORLD, "MPI_Pack_external_size", MPI_ERR_ARG, "the size argument is NULL");
    return gp_x32_convert("MPI_Pack_external_size", o, incount, 0, 0, 0, size);
}

GPUMPI_FN int MPI_Pack_external(const char datarep[], const void *inbuf, int incount, MPI_Datatype datatype,
                                void *outbuf, MPI_Aint outsize, MPI_Aint *position)
{
    const char *fn = "MPI_Pack_external";
    const gp_tobj *o = 0;
    MPI_Aint need;
    GP_TRY(gp_x32_check(fn, datarep, datatype, incount, &o));
    if (!position) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the position argument is NULL");
    GP_TRY(gp_x32_convert(fn, o, incount, 0, 0, 0, &need));
    if (*position < 0 || outsize < 0 || *position + need > outsize)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TRUNCATE,
                      "%ld bytes do not fit at position %ld of an output buffer of %ld bytes", (long)need,
                      (long)*position, (long)outsize);
    size_t native = (size_t)incount * (size_t)o->size;
    void *tmp = gp_malloc(native ? native : 1);
    if (!tmp) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_NO_MEM, "no device heap left for %zu bytes", native);
    gp_type_pack(inbuf, incount, datatype, tmp);
    int rc = gp_x32_convert(fn, o, incount, tmp, (char *)outbuf + *position, 1, &need);
    gp_free(tmp);
    if (rc == MPI_SUCCESS) *position += need;
    return rc;
}

GPUMPI_FN int MPI_Unpack_external(const char datarep[], const void *inbuf, MPI_Aint insize, MPI_Aint *position,
                                  void *outbuf, int outcount, MPI_Datatype datatype)
{
    const char *fn = "MPI_Unpack_external";
    const gp_tobj *o = 0;
    MPI_Aint need;
    GP_TRY(gp_x32_check(fn, datarep, datatype, outcount, &o));
    if (!position) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_ARG, "the position argument is NULL");
    GP_TRY(gp_x32_convert(fn, o, outcount, 0, 0, 0, &need));
    if (*position < 0 || insize < 0 || *position + need > insize)
        return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_TRUNCATE,
                      "%ld bytes are not there at position %ld of an input buffer of %ld bytes", (long)need,
                      (long)*position, (long)insize);
    size_t native = (size_t)outcount * (size_t)o->size;
    void *tmp = gp_malloc(native ? native : 1);
    if (!tmp) return gp_err(MPI_COMM_WORLD, fn, MPI_ERR_NO_MEM, "no device heap left for %zu bytes", native);
    int rc = gp_x32_convert(fn, o, outcount, (const char *)inbuf + *position, tmp, 2, &need);
    if (rc == MPI_SUCCESS) {
        gp_type_unpack(tmp, native, outbuf, outcount, datatype);
        *position += need;
    }
    gp_free(tmp);
    return rc;
}
