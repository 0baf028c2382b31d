/* Per-rank globals: every rank must see its own copy of every global,
 * static local and __thread variable, initialised as in C, with pointers in
 * initializers aimed at the rank's own copies. Prints "globals: OK" on rank
 * 0 when every rank's checks passed. The other half is in other.c. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct config {
    int iterations;
    double tolerance;
    const char *label;
};

int counter;                      /* tentative definition */
int counter;                      /* and again */
static double scale = 2.5, offset;
int table[4] = {1, 2, 3, 4};
int *ptr = &table[2];             /* must point at this rank's table */
int **pptr = &ptr;
const char *names[] = {"zero", "one", "two"};
const int LIMIT = 10;             /* stays shared */
const int *const counter_addr = &counter; /* const, yet per rank: it points at a global */
__thread int tls_value = 7;
struct config cfg = {.iterations = 3, .tolerance = 1e-6, .label = "cfg"};
char message[32] = "hello";

typedef int (*op_fn)(int);
static int add_one(int x) { return x + 1; }
static int twice(int x) { return 2 * x; }
op_fn ops[] = {add_one, twice};

extern int shared_total;          /* defined in other.c */
int bump_shared(int by);          /* in other.c */
int other_file_calls(void);       /* in other.c: a static local there */

static int next_ticket(void)
{
    static int calls = 0, *last = &calls;
    static const int step = 1;    /* a device constant, shared */
    calls += step;
    return *last;
}

int main(int argc, char **argv)
{
    int rank, size, errors = 0, all, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* initial values, as C defines them */
    if (counter != 0 || scale != 2.5 || offset != 0 || table[3] != 4 || *ptr != 3 || **pptr != 3) errors++;
    if (strcmp(names[2], "two") || tls_value != 7 || cfg.iterations != 3 || strcmp(cfg.label, "cfg")) errors++;
    if (strcmp(message, "hello") || ops[1](ops[0](4)) != 10 || shared_total != 100) errors++;
    if (ptr != &table[2] || pptr != &ptr || counter_addr != &counter) errors++;

    /* every rank writes its own values ... */
    counter = rank;
    scale = rank * 0.5;
    table[2] = 1000 + rank;
    tls_value = rank * 3;
    cfg.iterations = rank;
    message[0] = (char)('A' + rank % 26);
    for (i = 0; i <= rank % 5; i++) next_ticket();
    for (i = 0; i <= rank % 3; i++) bump_shared(rank);
    for (i = 0; i < 2; i++) other_file_calls();

    /* ... and after everyone has written, still sees exactly them */
    MPI_Barrier(MPI_COMM_WORLD);
    if (counter != rank || scale != rank * 0.5 || *ptr != 1000 + rank || *counter_addr != rank) errors++;
    if (tls_value != rank * 3 || cfg.iterations != rank || message[0] != 'A' + rank % 26) errors++;
    if (next_ticket() != rank % 5 + 2) errors++;
    if (shared_total != 100 + rank * (rank % 3 + 1)) errors++;
    if (other_file_calls() != 3 || LIMIT != 10) errors++;

    MPI_Allreduce(&errors, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD); /* every rank returns the verdict */
    if (rank == 0) printf(all ? "globals: %d errors\n" : "globals: OK\n", all);
    MPI_Finalize();
    return all != 0;
}
