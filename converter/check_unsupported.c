/* Constructs gpumpi cannot run on a GPU thread stop the conversion with an
 * error that says why and what to do, instead of an nvcc message about
 * host functions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "convert.h"

typedef struct {
    const char *prefix; /* a function name, or a prefix ending in '_' or '*' */
    const char *why;
} unsupported;

static const unsupported calls[] = {
    {"setjmp", "non-local jumps are not supported on the GPU; restructure the error path with return codes"},
    {"_setjmp", "non-local jumps are not supported on the GPU; restructure the error path with return codes"},
    {"sigsetjmp", "non-local jumps are not supported on the GPU; restructure the error path with return codes"},
    {"longjmp", "non-local jumps are not supported on the GPU; restructure the error path with return codes"},
    {"siglongjmp", "non-local jumps are not supported on the GPU; restructure the error path with return codes"},
    {"fork", "a rank cannot create processes; every rank is a GPU thread"},
    {"vfork", "a rank cannot create processes; every rank is a GPU thread"},
    {"execv*", "a rank cannot run other programs; every rank is a GPU thread"},
    {"pthread_*", "threads inside a rank are not supported: each rank is already one GPU thread"},
    /* signal() and sigaction() are accepted: libc-shim's <signal.h> takes
     * the handler and never calls it (a GPU thread gets no signals) */
    {NULL, NULL},
};

static const char *why_unsupported(const char *name)
{
    for (int i = 0; calls[i].prefix; i++) {
        size_t n = strlen(calls[i].prefix);
        if (calls[i].prefix[n - 1] == '*' ? strncmp(name, calls[i].prefix, n - 1) == 0 : strcmp(name, calls[i].prefix) == 0)
            return calls[i].why;
    }
    return NULL;
}

static void check_misaligned_address(gp_conv *c, CXCursor op);

static enum CXChildVisitResult visit(CXCursor cur, CXCursor parent, CXClientData data)
{
    (void)parent;
    gp_conv *c = data;
    if (!gp_converted(c, cur)) return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(cur);
    if (k == CXCursor_AsmStmt || k == CXCursor_MSAsmStmt) {
        gp_error_at(c, clang_getCursorLocation(cur),
                    "inline assembly: host assembly cannot run on the GPU; use portable C, or guard it with "
                    "#ifndef __CUDACC__");
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_UnaryOperator) check_misaligned_address(c, cur);
    if (k == CXCursor_VarDecl && clang_getCanonicalType(clang_getCursorType(cur)).kind == CXType_VariableArray) {
        CXString s = clang_getCursorSpelling(cur);
        char msg[512];
        snprintf(msg, sizeof msg,
                 "variable-length array '%s': nvcc does not support them in device code; allocate it with malloc "
                 "or give it a constant size",
                 clang_getCString(s));
        clang_disposeString(s);
        gp_gpu_only_error(c, cur, msg);
    }
    if (k == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(cur);
        if (clang_getCursorKind(ref) == CXCursor_FunctionDecl && !gp_converted(c, ref)) {
            CXString s = clang_getCursorSpelling(ref);
            const char *why = why_unsupported(clang_getCString(s));
            if (why) gp_error_at(c, clang_getCursorLocation(cur), "%s: %s", clang_getCString(s), why);
            clang_disposeString(s);
        }
    }
    return CXChildVisit_Recurse;
}

/* &s.f where f sits misaligned in a packed struct (#pragma pack): x86 takes
 * the unaligned pointer, a GPU stops with "misaligned address". */


static void check_misaligned_address(gp_conv *c, CXCursor op)
{
    CXCursor e;
    if (gp_children(op, &e, 1) != 1) return;
    while (clang_getCursorKind(e) == CXCursor_ParenExpr)
        if (gp_children(e, &e, 1) != 1) return;
    if (clang_getCursorKind(e) != CXCursor_MemberRefExpr || !gp_first_token_is(c, op, "&")) return;
    CXCursor field = clang_getCursorReferenced(e);
    if (clang_getCursorKind(field) != CXCursor_FieldDecl || clang_Cursor_isBitField(field)) return;
    long long bits = clang_Cursor_getOffsetOfField(field);
    long long align = clang_Type_getAlignOf(clang_getCursorType(field));
    if (bits < 0 || align <= 1 || (bits / 8) % align == 0) return;
    CXString s = clang_getCursorSpelling(field);
    char msg[512];
    snprintf(msg, sizeof msg,
             "the address of member '%s' of a packed struct is misaligned, and the GPU cannot use misaligned "
             "pointers: copy the member to a local, or drop #pragma pack",
             clang_getCString(s));
    clang_disposeString(s);
    gp_gpu_only_error(c, op, msg);
}

void gp_check_unsupported(gp_conv *c) { clang_visitChildren(clang_getTranslationUnitCursor(c->tu), visit, c); }
