/* volatile is commented out of the user's code.
 *
 * C copies a volatile struct like any other; C++ refuses (its implicit copy
 * operations take no volatile operands), so programs that copy volatile
 * structs or unions would not compile. Dropping the qualifier is safe here:
 * a rank's memory is touched by that rank alone (the runtime reaches user
 * buffers only inside MPI calls), and signal handlers and longjmp, the other
 * reasons for volatile, are not supported. Only the optimiser sees the
 * difference. Runs before the other passes: their insertions at the same
 * place then land outside the comment. */
#include <string.h>

#include "convert.h"

static void strip_file(gp_conv *c, CXFile f)
{
    size_t len;
    gp_text(c, f, &len);
    CXSourceRange all = clang_getRange(gp_loc(c, f, 0), gp_loc(c, f, (unsigned)len));
    CXToken *toks;
    unsigned n;
    clang_tokenize(c->tu, all, &toks, &n);
    for (unsigned i = 0; i < n; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Keyword) continue;
        CXString s = clang_getTokenSpelling(c->tu, toks[i]);
        int is_volatile = !strcmp(clang_getCString(s), "volatile");
        clang_disposeString(s);
        if (!is_volatile) continue;
        unsigned off = gp_offset(clang_getTokenLocation(c->tu, toks[i]));
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off), "/*");
        clang_CXRewriter_insertTextBefore(c->rw, gp_loc(c, f, off + 8), "*/");
    }
    clang_disposeTokens(c->tu, toks, n);
}

void gp_rewrite_volatile(gp_conv *c) { gp_for_each_converted_file(c, strip_file); }
