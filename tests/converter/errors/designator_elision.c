struct inner { int a, b; };
struct outer { int tag; struct inner in; int last; };
/* C's brace elision: 1 and 2 fill in.a and in.b; reordering would change that */
struct outer o = { .last = 9, .tag = 0, 1, 2 };
