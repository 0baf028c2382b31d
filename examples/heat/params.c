/* The input file: one "key value" pair per line, '#' comments, any order;
 * keys not given keep their defaults. */
#include <stdio.h>
#include <string.h>
#include <mpi.h>
#include "params.h"

static void set_defaults(struct heat_params *p)
{
    p->dim = 2;
    p->n = 64;
    p->steps = 100;
    p->check_every = 0;
    p->halo = HALO_SENDRECV;
    p->r = 0.2;
    p->tol = 1e-10;
}

static int check(const char *path, const struct heat_params *p)
{
    if (p->dim != 2 && p->dim != 3) {
        fprintf(stderr, "%s: dim must be 2 or 3, not %d\n", path, p->dim);
        return -1;
    }
    if (p->n < 1 || p->steps < 0 || p->check_every < 0) {
        fprintf(stderr, "%s: need n >= 1, steps >= 0, check_every >= 0\n", path);
        return -1;
    }
    if (p->r <= 0 || p->r > 0.5 / p->dim) {
        fprintf(stderr, "%s: r = %g is unstable in %d-D (0 < r <= %g)\n", path, p->r, p->dim, 0.5 / p->dim);
        return -1;
    }
    return 0;
}

int heat_read_params(const char *path, struct heat_params *p)
{
    char key[64], val[64];
    FILE *f = fopen(path, "r");
    set_defaults(p);
    if (!f) {
        fprintf(stderr, "heat: cannot open input file %s\n", path);
        return -1;
    }
    while (fscanf(f, "%63s", key) == 1) {
        if (key[0] == '#') {
            fscanf(f, "%*[^\n]");
            continue;
        }
        if (fscanf(f, "%63s", val) != 1) {
            fprintf(stderr, "%s: no value for %s\n", path, key);
            fclose(f);
            return -1;
        }
        if (!strcmp(key, "dim"))
            sscanf(val, "%d", &p->dim);
        else if (!strcmp(key, "n"))
            sscanf(val, "%d", &p->n);
        else if (!strcmp(key, "steps"))
            sscanf(val, "%d", &p->steps);
        else if (!strcmp(key, "check_every"))
            sscanf(val, "%d", &p->check_every);
        else if (!strcmp(key, "r"))
            sscanf(val, "%lf", &p->r);
        else if (!strcmp(key, "tol"))
            sscanf(val, "%lf", &p->tol);
        else if (!strcmp(key, "halo")) {
            if (!strcmp(val, "sendrecv"))
                p->halo = HALO_SENDRECV;
            else if (!strcmp(val, "isend"))
                p->halo = HALO_ISEND;
            else {
                fprintf(stderr, "%s: halo is sendrecv or isend, not %s\n", path, val);
                fclose(f);
                return -1;
            }
        } else {
            fprintf(stderr, "%s: unknown key %s\n", path, key);
            fclose(f);
            return -1;
        }
    }
    fclose(f);
    return check(path, p);
}

int heat_load_params(const char *path, struct heat_params *p)
{
    int rank, ok = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        ok = heat_read_params(path, p) == 0;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok)
        return -1;
    /* a plain struct of ints and doubles: bytes are fine on one machine */
    MPI_Bcast(p, (int)sizeof *p, MPI_BYTE, 0, MPI_COMM_WORLD);
    return 0;
}
