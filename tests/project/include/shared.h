/* What the library offers both programs, and its two globals. */
#ifndef SHARED_H
#define SHARED_H

extern int calls;       /* how often the library was used, per rank */
extern double weight;   /* set by each program */

long lib_sum(long n);
double lib_weighted(double x);

#endif
