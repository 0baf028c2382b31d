/* Making a datatype object: its bounds, size and basic type from its
 * blocks, and its program (datatype.h) with runs merged and children
 * folded in, so packing walks as few steps as the layout allows. */
#include "types_build.h"
#include "gpumpi/shim_string.h"
#include "gpumpi/shim_stdlib.h"

GPUMPI_FN static MPI_Aint gp_amin(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
GPUMPI_FN static MPI_Aint gp_amax(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

GPUMPI_FN gp_tobj *gp_tobj_new(int kind)
{
    gp_tobj *o = (gp_tobj *)gp_calloc(1, sizeof(gp_tobj));
    if (!o) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype");
    o->refs = 1;
    o->kind = kind;
    return o;
}

/* ---- the program ------------------------------------------------------------ */

GPUMPI_FN static gp_tent *gp_tb_push(gp_tbuild *b)
{
    if (b->n == b->cap) {
        int cap = b->cap ? b->cap * 2 : 4;
        gp_tent *grown = (gp_tent *)gp_malloc(sizeof(gp_tent) * (size_t)cap);
        if (!grown) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype of %d steps", cap);
        if (b->n) gp_memcpy(grown, b->e, sizeof(gp_tent) * (size_t)b->n);
        gp_free(b->e);
        b->e = grown;
        b->cap = cap;
    }
    return &b->e[b->n++];
}

/* Adds count more copies at off + k * stride to the last step L, which
 * holds the same block: 1 when they continue its stride, else 0. */
GPUMPI_FN static int gp_tb_extend(gp_tent *L, MPI_Aint off, MPI_Aint stride, MPI_Aint count)
{
    if (L->count == 1 && count == 1) {
        L->stride = off - L->off;
        L->count = 2;
        return 1;
    }
    if (L->count > 1 && off == L->off + L->count * L->stride && (count == 1 || stride == L->stride)) {
        L->count += count;
        return 1;
    }
    return 0;
}

GPUMPI_FN static void gp_tb_add(gp_tbuild *b, MPI_Aint off, MPI_Aint stride, MPI_Aint count, MPI_Aint len,
                                const gp_tobj *child)
{
    gp_tent *e = gp_tb_push(b);
    e->off = off;
    e->stride = stride;
    e->count = count;
    e->len = len;
    e->child = child;
}

/* count runs of len bytes at off + k * stride */
GPUMPI_FN static void gp_tb_leaf(gp_tbuild *b, MPI_Aint off, MPI_Aint stride, MPI_Aint count, MPI_Aint len)
{
    if (count <= 0 || len <= 0) return;
    if (count > 1 && stride == len) { /* back to back: one run */
        len *= count;
        count = 1;
    }
    if (count == 1) stride = 0;
    if (b->n) {
        gp_tent *L = &b->e[b->n - 1];
        if (!L->child && L->count == 1 && count == 1 && L->off + L->len == off) {
            L->len += len; /* continues the last run */
            return;
        }
        if (!L->child && L->len == len && gp_tb_extend(L, off, stride, count)) return; /* evenly spaced runs */
    }
    gp_tb_add(b, off, stride, count, len, 0);
}

/* count elements of child at off + k * stride, child not folded in */
GPUMPI_FN static void gp_tb_nest(gp_tbuild *b, MPI_Aint off, MPI_Aint stride, MPI_Aint count, const gp_tobj *child)
{
    if (count <= 0 || child->size == 0) return;
    if (count == 1) stride = 0;
    if (b->n) {
        gp_tent *L = &b->e[b->n - 1];
        if (L->child == child && gp_tb_extend(L, off, stride, count)) return;
    }
    gp_tb_add(b, off, stride, count, child->size, child);
}

/* A step of a child's program, moved by off. */
GPUMPI_FN static void gp_tb_step(gp_tbuild *b, MPI_Aint off, const gp_tent *e)
{
    if (e->child)
        gp_tb_nest(b, off + e->off, e->stride, e->count, e->child);
    else
        gp_tb_leaf(b, off + e->off, e->stride, e->count, e->len);
}

GPUMPI_FN void gp_tb_run(gp_tbuild *b, MPI_Aint off, MPI_Aint count, MPI_Aint stride, const gp_tobj *child)
{
    if (count <= 0 || child->size == 0) return;
    const gp_tent *P = gp_prog(child);
    if (child->nent == 1) {
        const gp_tent *e = &P[0];
        if (e->count == 1) { /* the child is one block: repeat that block */
            if (e->child)
                gp_tb_nest(b, off + e->off, stride, count, e->child);
            else
                gp_tb_leaf(b, off + e->off, stride, count, e->len);
            return;
        }
        if (count == 1) {
            gp_tb_step(b, off, e);
            return;
        }
    } else if (count == 1 && child->nent <= GP_INLINE_CHILD) {
        for (int i = 0; i < child->nent; i++) gp_tb_step(b, off, &P[i]);
        return;
    }
    gp_tb_nest(b, off, stride, count, child);
}

GPUMPI_FN static int gp_tb_names(const gp_tbuild *b, const gp_tobj *child)
{
    for (int i = 0; i < b->n; i++)
        if (b->e[i].child == child) return 1;
    return 0;
}

/* ---- bounds ---------------------------------------------------------------- */

GPUMPI_FN void gp_tacc_init(gp_tacc *a, const gp_tobj *old)
{
    gp_memset(a, 0, sizeof *a);
    a->align = 1;
    if (old) {
        a->basic = old->basic;
        a->seen = 1;
    }
}

/* copies (>= 1) elements of child whose origins lie between lo and hi */
GPUMPI_FN void gp_tacc_add(gp_tacc *a, MPI_Aint lo, MPI_Aint hi, const gp_tobj *child, MPI_Aint copies)
{
    a->size += copies * child->size;
    a->nelems += (MPI_Count)copies * child->nelems;
    if (child->size == 0) {
        /* no data (a marker, an empty type): nothing for a reduction to see */
    } else if (!a->seen) {
        a->basic = child->basic;
        a->seen = 1;
    } else if (a->basic != child->basic) {
        a->mixed = 1;
    }
    if (child->align > a->align) a->align = child->align;
    a->sticky |= child->sticky & (GP_STICKY_LB | GP_STICKY_UB | GP_RESIZED);
    a->any = 1;
    /* markers' bounds win over the data's own (datatype.h); a marker
     * alone says nothing about the other bound */
    MPI_Aint lb = lo + child->lb, ub = hi + child->ub;
    if (!(child->sticky & GP_NO_LB)) {
        int x = (child->sticky & GP_STICKY_LB) != 0;
        if (!a->has_lb[x] || lb < a->lb_of[x]) a->lb_of[x] = lb;
        a->has_lb[x] = 1;
    }
    if (!(child->sticky & GP_NO_UB)) {
        int x = (child->sticky & GP_STICKY_UB) != 0;
        if (!a->has_ub[x] || ub > a->ub_of[x]) a->ub_of[x] = ub;
        a->has_ub[x] = 1;
    }
    if (child->size > 0) {
        MPI_Aint tlb = lo + child->true_lb, tub = hi + child->true_ub;
        if (!a->tany || tlb < a->tlb) a->tlb = tlb;
        if (!a->tany || tub > a->tub) a->tub = tub;
        a->tany = 1;
    }
}

/* n elements of child from off, ext apart: the range of their origins */
GPUMPI_FN void gp_tacc_block(gp_tacc *a, MPI_Aint off, MPI_Aint n, const gp_tobj *child)
{
    if (n <= 0) return;
    MPI_Aint last = off + (n - 1) * gp_ext(child);
    gp_tacc_add(a, gp_amin(off, last), gp_amax(off, last), child, n);
}

GPUMPI_FN void gp_tobj_finish(gp_tobj *o, const gp_tacc *a, gp_tbuild *b)
{
    o->size = a->size;
    o->nelems = a->nelems;
    o->basic = a->mixed ? MPI_DATATYPE_NULL : a->basic;
    o->align = a->align;
    o->sticky |= a->sticky;
    int hl = a->has_lb[1] || a->has_lb[0], hu = a->has_ub[1] || a->has_ub[0];
    MPI_Aint lb = a->has_lb[1] ? a->lb_of[1] : a->lb_of[0], ub = a->has_ub[1] ? a->ub_of[1] : a->ub_of[0];
    o->lb = hl ? lb : 0; /* only markers of the other kind: 0, as MPICH has it */
    o->ub = hu ? ub : 0;
    o->true_lb = a->tany ? a->tlb : 0;
    o->true_ub = a->tany ? a->tub : 0;
    gp_tobj_set_program(o, b);
}

GPUMPI_FN void gp_tobj_set_program(gp_tobj *o, gp_tbuild *b)
{
    o->nent = b->n;
    if (b->n <= GP_INLINE_ENTS) {
        if (b->n) gp_memcpy(o->ents, b->e, sizeof(gp_tent) * (size_t)b->n);
        gp_free(b->e);
    } else if (b->n == b->cap) {
        o->more = b->e;
    } else { /* keep only what it uses */
        o->more = (gp_tent *)gp_malloc(sizeof(gp_tent) * (size_t)b->n);
        if (!o->more) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype of %d steps", b->n);
        gp_memcpy(o->more, b->e, sizeof(gp_tent) * (size_t)b->n);
        gp_free(b->e);
    }
    b->e = 0;
    b->n = b->cap = 0;
    const gp_tent *P = gp_prog(o);
    o->depth = 0;
    for (int i = 0; i < o->nent; i++)
        if (P[i].child && P[i].child->depth + 1 > o->depth) o->depth = P[i].child->depth + 1;
    if (o->size == 0) {
        o->run = 1;
        o->run_off = 0;
    } else {
        o->run = o->nent == 1 && !P[0].child && P[0].count == 1;
        o->run_off = o->run ? P[0].off : 0;
    }
    o->dense = o->run && o->size == gp_ext(o);
}

/* ---- the constructors, on objects ---------------------------------------- */

GPUMPI_FN gp_tobj *gp_make_contig(MPI_Aint count, const gp_tobj *old)
{
    gp_tobj *o = gp_tobj_new(GP_TK_CONTIG);
    o->nblocks = 1;
    o->bl1 = count;
    o->child1 = old;
    gp_tobj_ref(old);
    gp_tacc a;
    gp_tacc_init(&a, old);
    gp_tacc_block(&a, 0, count, old);
    gp_tbuild b = {0, 0, 0};
    gp_tb_run(&b, 0, count, gp_ext(old), old);
    gp_tobj_finish(o, &a, &b);
    return o;
}

GPUMPI_FN gp_tobj *gp_make_hvector(MPI_Aint count, MPI_Aint bl, MPI_Aint stride, const gp_tobj *old)
{
    gp_tobj *o = gp_tobj_new(GP_TK_VECTOR);
    o->nblocks = (int)count;
    o->bl1 = bl;
    o->child1 = old;
    gp_tobj_ref(old);
    gp_tacc a;
    gp_tacc_init(&a, old);
    gp_tbuild b = {0, 0, 0};
    if (count > 0 && bl > 0) {
        MPI_Aint ext = gp_ext(old), lastb = (bl - 1) * ext, lastv = (count - 1) * stride;
        gp_tacc_add(&a, gp_amin(0, lastb) + gp_amin(0, lastv), gp_amax(0, lastb) + gp_amax(0, lastv), old, count * bl);
        if (bl == 1) {
            gp_tb_run(&b, 0, count, stride, old);
        } else if (count == 1) {
            gp_tb_run(&b, 0, bl, ext, old);
        } else {
            /* a block of bl elements, repeated: if the block is one run
             * the program is one strided step, else it names the block */
            gp_tobj *blk = gp_make_contig(bl, old);
            gp_tb_run(&b, 0, count, stride, blk);
            if (gp_tb_names(&b, blk))
                o->aux = blk;
            else
                gp_tobj_unref(blk);
        }
    }
    gp_tobj_finish(o, &a, &b);
    return o;
}

GPUMPI_FN gp_tobj *gp_make_blocks(int kind, int count, gp_ivec bls, MPI_Aint bl, gp_ivec disp, int in_extents,
                                  const gp_tobj *old, const MPI_Datatype *types)
{
    gp_tobj *o = gp_tobj_new(kind);
    o->nblocks = count;
    if (gp_iv_set(bls) && count > 0) {
        o->blocklens = (MPI_Aint *)gp_malloc(sizeof(MPI_Aint) * (size_t)count);
        if (!o->blocklens) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype of %d blocks", count);
        for (int i = 0; i < count; i++) o->blocklens[i] = (MPI_Aint)gp_iv(bls, i);
    } else {
        o->bl1 = bl;
    }
    if (types && count > 0) {
        o->children = (const gp_tobj **)gp_malloc(sizeof(gp_tobj *) * (size_t)count);
        if (!o->children) gp_fatal("MPI_Type", MPI_ERR_NO_MEM, "no device heap left for a datatype of %d blocks", count);
        for (int i = 0; i < count; i++) {
            o->children[i] = gp_tobj_of(types[i]);
            gp_tobj_ref(o->children[i]);
        }
    } else if (old) {
        o->child1 = old;
        gp_tobj_ref(old);
    }
    gp_tacc a;
    gp_tacc_init(&a, types ? 0 : old);
    gp_tbuild b = {0, 0, 0};
    for (int i = 0; i < count; i++) {
        const gp_tobj *c = o->children ? o->children[i] : old;
        MPI_Aint n = o->blocklens ? o->blocklens[i] : bl;
        MPI_Aint d = in_extents ? (MPI_Aint)gp_iv(disp, i) * gp_ext(c) : (MPI_Aint)gp_iv(disp, i);
        if (n <= 0) continue;
        gp_tacc_block(&a, d, n, c);
        gp_tb_run(&b, d, n, gp_ext(c), c);
    }
    gp_tobj_finish(o, &a, &b);
    /* a struct's extent is padded to its strictest alignment, as C pads
     * a struct, unless bounds were set explicitly (MPI_Type_create_resized) */
    if (kind == GP_TK_STRUCT && a.any && !o->sticky && o->align > 1) {
        MPI_Aint ext = gp_ext(o), r = ext % o->align;
        if (r > 0) {
            o->ub += o->align - r;
            o->dense = o->run && o->size == gp_ext(o);
        }
    }
    return o;
}

/* kind GP_TK_RESIZED: new bounds; GP_TK_DUP: the same type again */
GPUMPI_FN gp_tobj *gp_make_resized(int kind, const gp_tobj *old, MPI_Aint lb, MPI_Aint extent)
{
    gp_tobj *o = gp_tobj_new(kind);
    o->nblocks = 1;
    o->bl1 = 1;
    o->child1 = old;
    gp_tobj_ref(old);
    o->size = old->size;
    o->nelems = old->nelems;
    o->basic = old->basic;
    o->align = old->align;
    o->true_lb = old->true_lb;
    o->true_ub = old->true_ub;
    if (kind == GP_TK_RESIZED) {
        o->sticky = GP_RESIZED; /* the old type's markers are gone: these bounds replace them */
        o->lb = lb;
        o->ub = lb + extent;
    } else {
        o->sticky = old->sticky;
        o->lb = old->lb;
        o->ub = old->ub;
    }
    gp_tbuild b = {0, 0, 0};
    gp_tb_run(&b, 0, 1, 0, old);
    gp_tobj_set_program(o, &b);
    return o;
}
