/* Designated initializers C++ does not take, rewritten before the other
 * passes run.
 *
 * C lets designators come in any order, name array elements ([3] = x, GNU
 * ranges [1 ... 4] = x), reach into members (.a.b = x, [2].y = x) and mix
 * with positional values; C++ (nvcc, g++) only takes struct designators in
 * member order, none of the rest. Such a list is written out again, in C
 * that every compiler reads the same way: structs and arrays positionally,
 * with 0 or {} for what C leaves zero, and unions with the one member that
 * C initializes last. The result is C again: the caller parses it once more
 * and the usual passes run on it.
 *
 * libclang shows a designated element as an UnexposedExpr whose children
 * are the designators (a MemberRef per member, including the implicit one
 * into an anonymous struct or union; the index expressions) and then the
 * value. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

enum { MAX_PARTS = 64, MAX_ELEMENTS = 1 << 16 };

typedef struct {
    int is_field;
    CXCursor field;      /* the member a .name designator refers to */
    long long lo, hi;    /* [lo] or [lo ... hi] */
} designator;

/* One value for the list being written, with the designators it still has
 * to go through below this level. */
typedef struct {
    designator *d;
    int nd;
    CXCursor value;
} item;

typedef struct {
    int set;       /* 0: nothing, 1: value, 2: items for the member's own list */
    CXCursor value;
    item *sub;
    int nsub, cap;
} slot;

typedef struct {
    char *p;
    size_t n, cap;
} text;

typedef struct {
    gp_conv *c;
    CXFile file;
    int needed;     /* something C++ would refuse was found */
    int failed;
    designator *pool[4096]; /* designator arrays to free at the end */
    int npool;
} ctx;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->n + (size_t)n + 1 > t->cap) {
        t->cap = (t->n + (size_t)n + 1) * 2;
        t->p = realloc(t->p, t->cap);
    }
    va_start(ap, fmt);
    vsnprintf(t->p + t->n, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->n += (size_t)n;
}

static void fail(ctx *x, CXCursor at, const char *why)
{
    if (!x->failed)
        gp_error_at(x->c, clang_getCursorLocation(at),
                    "designated initializer: %s (C++ takes designators only in member order, so gpumpi rewrites "
                    "this list and cannot here)", why);
    x->failed = 1;
}

static int is_list(CXCursor cur) { return clang_getCursorKind(cur) == CXCursor_InitListExpr; }

/* A designated element starts with '.', '[' or (old GNU style) "name:". */
static int designator_form(gp_conv *c, CXCursor el)
{
    if (clang_getCursorKind(el) != CXCursor_UnexposedExpr) return 0;
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(el), &toks, &n);
    int form = 0;
    if (n >= 2) {
        CXString a = clang_getTokenSpelling(c->tu, toks[0]), b = clang_getTokenSpelling(c->tu, toks[1]);
        const char *s = clang_getCString(a);
        if (!strcmp(s, ".") || !strcmp(s, "["))
            form = 1;
        else if (clang_getTokenKind(toks[0]) == CXToken_Identifier && !strcmp(clang_getCString(b), ":"))
            form = 2;
        clang_disposeString(a);
        clang_disposeString(b);
    }
    clang_disposeTokens(c->tu, toks, n);
    return form;
}

/* Which [ ] groups of a designated element are GNU ranges, in order. */
static int range_groups(gp_conv *c, CXCursor el, int *is_range, int max)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, clang_getCursorExtent(el), &toks, &n);
    int groups = 0, depth = 0;
    for (unsigned i = 0; i < n; i++) {
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        const char *t = clang_getCString(s);
        int stop = 0;
        if (!strcmp(t, "[")) {
            if (depth++ == 0 && groups < max) is_range[groups++] = 0;
        } else if (!strcmp(t, "]")) {
            depth--;
        } else if (!strcmp(t, "...") && depth == 1) {
            is_range[groups - 1] = 1;
        } else if (depth == 0 && (!strcmp(t, "=") || !strcmp(t, ":"))) {
            stop = 1;
        }
        clang_disposeString(s);
        if (stop) break;
    }
    clang_disposeTokens(c->tu, toks, n);
    return groups;
}

static int list_has_designators(gp_conv *c, CXCursor list);

struct found {
    gp_conv *c;
    int yes;
};

static enum CXChildVisitResult find_designator(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct found *a = data;
    if (designator_form(a->c, cur) || (is_list(cur) && list_has_designators(a->c, cur))) {
        a->yes = 1;
        return CXChildVisit_Break;
    }
    return CXChildVisit_Continue;
}

static int list_has_designators(gp_conv *c, CXCursor list)
{
    struct found a = {c, 0};
    clang_visitChildren(list, find_designator, &a);
    return a.yes;
}

/* The items of a list as written, with their designators read out. */
static int read_items(ctx *x, CXCursor list, item **out)
{
    CXCursor els[MAX_PARTS * 16];
    int n = gp_children(list, els, MAX_PARTS * 16);
    if (n > MAX_PARTS * 16) {
        fail(x, list, "more values in one list than gpumpi can reorder; split the list");
        return -1;
    }
    item *items = calloc((size_t)n + 1, sizeof *items);
    for (int i = 0; i < n; i++) {
        items[i].value = els[i];
        int form = designator_form(x->c, els[i]);
        if (!form) continue;
        if (form == 2) x->needed = 1;
        CXCursor parts[MAX_PARTS];
        int np = gp_children(els[i], parts, MAX_PARTS);
        int is_range[MAX_PARTS];
        int ng = range_groups(x->c, els[i], is_range, MAX_PARTS);
        if (np < 2 || np > MAX_PARTS || x->npool >= (int)(sizeof x->pool / sizeof x->pool[0])) {
            fail(x, els[i], "more designators than gpumpi can follow; use nested braces");
            free(items);
            return -1;
        }
        designator *d = calloc((size_t)np, sizeof *d);
        x->pool[x->npool++] = d;
        int nd = 0, g = 0;
        for (int k = 0; k < np - 1; k++) {
            if (clang_getCursorKind(parts[k]) == CXCursor_MemberRef) {
                d[nd].is_field = 1;
                d[nd++].field = clang_getCursorReferenced(parts[k]);
                continue;
            }
            x->needed = 1; /* an array designator */
            CXEvalResult r = clang_Cursor_Evaluate(parts[k]);
            int ok = r && clang_EvalResult_getKind(r) == CXEval_Int;
            d[nd].lo = d[nd].hi = ok ? clang_EvalResult_getAsLongLong(r) : -1;
            if (r) clang_EvalResult_dispose(r);
            if (g < ng && is_range[g] && k + 1 < np - 1) {
                r = clang_Cursor_Evaluate(parts[++k]);
                ok = ok && r && clang_EvalResult_getKind(r) == CXEval_Int;
                if (ok) d[nd].hi = clang_EvalResult_getAsLongLong(r);
                if (r) clang_EvalResult_dispose(r);
            }
            g++;
            if (!ok || d[nd].lo < 0 || d[nd].hi < d[nd].lo || d[nd].hi >= MAX_ELEMENTS) {
                fail(x, parts[k], "an array index that is not a constant below 65536; write the values positionally");
                free(items);
                return -1;
            }
            nd++;
        }
        if (nd > 1) x->needed = 1; /* a nested designator */
        items[i].d = d;
        items[i].nd = nd;
        items[i].value = parts[np - 1];
    }
    *out = items;
    return n;
}

typedef struct {
    CXCursor f[MAX_ELEMENTS / 64];
    int n;
} fields;

static enum CXVisitorResult add_field(CXCursor cur, CXClientData data)
{
    fields *fs = data;
    CXString name = clang_getCursorSpelling(cur);
    int unnamed_bits = clang_Cursor_isBitField(cur) && !clang_getCString(name)[0];
    clang_disposeString(name);
    if (!unnamed_bits && fs->n < (int)(sizeof fs->f / sizeof fs->f[0])) fs->f[fs->n++] = cur; /* unnamed bit-fields take no value */
    return CXVisit_Continue;
}

static void slot_add(slot *s, item it)
{
    if (s->set == 1) *s = (slot){0};
    if (s->nsub == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 4;
        s->sub = realloc(s->sub, (size_t)s->cap * sizeof *s->sub);
    }
    s->sub[s->nsub++] = it;
    s->set = 2;
}

static void slot_value(slot *s, CXCursor v)
{
    free(s->sub);
    *s = (slot){.set = 1, .value = v};
}

static int is_aggregate(CXType t)
{
    t = clang_getCanonicalType(t);
    return t.kind == CXType_Record || t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray;
}

static void write_list(ctx *x, CXType t, item *items, int n, text *out);

static void write_source(ctx *x, CXCursor v, text *out)
{
    CXFile f;
    unsigned b, e;
    size_t len;
    if (!gp_extent(v, &f, &b, &e) || !clang_File_isEqual(f, x->file)) {
        fail(x, v, "a value that a macro expands into; write it out");
        return;
    }
    const char *src = gp_text(x->c, f, &len);
    put(out, "%.*s", (int)(e - b), src + b);
}

/* Is v a value that initializes a whole member of type t without braces
 * (not C's brace elision, which would shift every later value)? */
static int whole_value(CXType t, CXCursor v)
{
    if (!is_aggregate(t) || is_list(v)) return 1;
    CXType vt = clang_getCanonicalType(clang_getCursorType(v));
    if (clang_equalTypes(vt, clang_getCanonicalType(t))) return 1;
    return vt.kind == CXType_ConstantArray; /* a string literal for a char array */
}

static void write_slot(ctx *x, CXType t, slot *s, text *out)
{
    if (s->set == 2) {
        write_list(x, t, s->sub, s->nsub, out);
    } else if (s->set == 1) {
        if (is_list(s->value) && list_has_designators(x->c, s->value)) {
            item *items;
            int n = read_items(x, s->value, &items);
            if (n < 0) return;
            write_list(x, t, items, n, out);
            free(items);
        } else {
            write_source(x, s->value, out);
        }
    } else {
        put(out, is_aggregate(t) ? "{}" : "0");
    }
}

/* Fills slots[0..count) from items at this level. Returns the number of
 * slots used (for arrays: the highest index + 1), or -1. */
static int place(ctx *x, CXType t, fields *fs, item *items, int n, slot *slots, int count, int *last)
{
    int pos = 0, used = 0, designated = 0, positional = 0, last_field = -1;
    for (int i = 0; i < n && !x->failed; i++) {
        item it = items[i];
        int lo = pos, hi = pos;
        if (it.nd > 0) {
            designator d = it.d[0];
            designated = 1;
            if (d.is_field != (fs != NULL)) {
                fail(x, it.value, "a designator of the wrong kind for this type");
                return -1;
            }
            if (fs) {
                lo = -1;
                for (int k = 0; k < fs->n; k++)
                    if (clang_equalCursors(fs->f[k], d.field)) lo = k;
                if (lo < 0) {
                    fail(x, it.value, "a member gpumpi cannot find in this type; please report this");
                    return -1;
                }
                if (lo <= last_field) x->needed = 1; /* out of member order */
                hi = lo;
            } else {
                lo = (int)d.lo;
                hi = (int)d.hi;
            }
        } else {
            positional = 1;
        }
        if (hi >= count) {
            fail(x, it.value, "more values than the type has room for");
            return -1;
        }
        for (int k = lo; k <= hi; k++) {
            CXType et = fs ? clang_getCursorType(fs->f[k]) : clang_getArrayElementType(clang_getCanonicalType(t));
            if (it.nd > 1)
                slot_add(&slots[k], (item){it.d + 1, it.nd - 1, it.value});
            else if (whole_value(et, it.value))
                slot_value(&slots[k], it.value);
            else {
                fail(x, it.value, "values without braces for a member that is a struct or array (brace elision) mixed with designators; put braces around that member's values");
                return -1;
            }
        }
        last_field = hi;
        *last = lo;
        pos = hi + 1;
        if (pos > used) used = pos;
    }
    if (positional && designated) x->needed = 1; /* C++ takes all designated or none */
    return x->failed ? -1 : used;
}

static void write_list(ctx *x, CXType t, item *items, int n, text *out)
{
    CXType ct = clang_getCanonicalType(t);
    int count;
    fields *fs = NULL;
    int is_union = 0;
    if (ct.kind == CXType_Record) {
        fs = calloc(1, sizeof *fs);
        clang_Type_visitFields(ct, add_field, fs);
        count = fs->n;
        is_union = clang_getCursorKind(clang_getTypeDeclaration(ct)) == CXCursor_UnionDecl;
    } else if (ct.kind == CXType_ConstantArray || ct.kind == CXType_IncompleteArray) {
        long long size = clang_getArraySize(ct);
        count = size >= 0 && size < MAX_ELEMENTS ? (int)size : MAX_ELEMENTS;
    } else {
        fail(x, items[0].value, "a designator for a type that is neither struct, union nor array");
        return;
    }
    slot *slots = calloc((size_t)count + 1, sizeof *slots);
    int which = -1; /* for a union: C initializes the member named last */
    int used = place(x, t, fs, items, n, slots, count, &which);
    if (used >= 0) {
        put(out, "{ ");
        if (is_union) {
            if (which > 0) {
                CXString name = clang_getCursorSpelling(fs->f[which]);
                if (!clang_getCString(name)[0]) fail(x, items[0].value, "a value for an unnamed member of a union; give the member a name");
                put(out, ".%s = ", clang_getCString(name));
                clang_disposeString(name);
            }
            if (which >= 0) write_slot(x, clang_getCursorType(fs->f[which]), &slots[which], out);
        } else {
            for (int k = 0; k < used && !x->failed; k++) {
                if (k) put(out, ", ");
                CXType et = fs ? clang_getCursorType(fs->f[k]) : clang_getArrayElementType(ct);
                write_slot(x, et, &slots[k], out);
            }
        }
        put(out, " }");
    }
    for (int k = 0; k < count; k++) free(slots[k].sub);
    free(slots);
    free(fs);
}

/* Does the list run from '{' to '}' in this file, not through a macro? */
static int written_out(ctx *x, CXCursor list, unsigned *b, unsigned *e)
{
    CXFile f;
    size_t len;
    if (!gp_extent(list, &f, b, e) || *e <= *b) return 0;
    x->file = f;
    const char *src = gp_text(x->c, f, &len);
    return src[*b] == '{' && src[*e - 1] == '}';
}

typedef struct {
    gp_conv *c;
    int edits;
} pass;

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    pass *p = data;
    gp_conv *c = p->c;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    if (!is_list(cur)) return CXChildVisit_Recurse;
    if (!list_has_designators(c, cur)) return CXChildVisit_Continue;

    ctx *x = calloc(1, sizeof *x);
    x->c = c;
    item *items;
    unsigned b, e;
    int inside = written_out(x, cur, &b, &e);
    int n = read_items(x, cur, &items);
    text out = {0};
    if (n >= 0) {
        write_list(x, clang_getCursorType(cur), items, n, &out);
        free(items);
    }
    if (x->needed && !x->failed) {
        if (!inside) {
            fail(x, cur, "the list comes from a macro; write it out where it is used");
        } else {
            size_t len;
            const char *src = gp_text(c, x->file, &len);
            for (unsigned i = b; i < e; i++) /* the same lines after it as before */
                if (src[i] == '\n') put(&out, "\n");
            gp_replace(c, x->file, b, e - b, out.p);
            p->edits++;
        }
    }
    for (int i = 0; i < x->npool; i++) free(x->pool[i]);
    free(out.p);
    free(x);
    return CXChildVisit_Continue;
}

int gp_rewrite_designators(gp_conv *c)
{
    pass p = {c, 0};
    clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, &p);
    return p.edits;
}
