/* A project header: prototypes, an extern global, a static inline helper. */
#ifndef API_H
#define API_H
#include <string.h>
#include "factor.h"

extern int total;
int accumulate(int v);

static inline int scaled(int v) { return v * FACTOR; }
#endif
