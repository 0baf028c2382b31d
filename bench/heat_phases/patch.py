"""Adds phase timers and a lanes count to a copy of examples/heat (see
heat_phases.sh). Exits non-zero if heat's sources no longer look as
expected, rather than building something that measures nothing."""
import sys

d = sys.argv[1]


def edit(name, pairs):
    path = f"{d}/{name}"
    s = open(path).read()
    for old, new in pairs:
        if old not in s:
            sys.exit(f"heat_phases: {name} no longer has: {old.strip()[:60]}")
        s = s.replace(old, new, 1)
    open(path, "w").write(s)


edit("halo.c", [
    ('#include "params.h"\n', '#include "params.h"\ndouble hp_t[8];\n'),
    ("    MPI_Request req[12];\n", "    MPI_Request req[12];\n    double a0 = MPI_Wtime(), a1, a2, a3, a4;\n"),
    ("        for (f = 0; f < 2 * gr->dim; f++)\n            MPI_Irecv",
     "        a1 = MPI_Wtime();\n        for (f = 0; f < 2 * gr->dim; f++)\n            MPI_Irecv"),
    ("        for (f = 0; f < 2 * gr->dim; f++)\n            MPI_Isend",
     "        a2 = MPI_Wtime();\n        for (f = 0; f < 2 * gr->dim; f++)\n            MPI_Isend"),
    ("        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);\n    }",
     "        a3 = MPI_Wtime();\n        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);\n        a4 = MPI_Wtime();\n"
     "        hp_t[0] += a1 - a0; hp_t[1] += a2 - a1; hp_t[2] += a3 - a2; hp_t[3] += a4 - a3;\n    }\n"
     "    a0 = MPI_Wtime();"),
])
s = open(f"{d}/halo.c").read().rstrip()
if not s.endswith("}"):
    sys.exit("heat_phases: halo.c does not end with halo_exchange")
open(f"{d}/halo.c", "w").write(s[:-1] + "    hp_t[4] += MPI_Wtime() - a0;\n}\n")

edit("main.c", [
    ("int main(", "extern double hp_t[8];\nint probe_lanes(void);\nstatic double hp_l[3];\nint main("),
    ("        halo_exchange(&h, &gr, u);\n        res = stencil_step(&gr, p.r, u, unew);",
     "        hp_l[0] += probe_lanes();\n        halo_exchange(&h, &gr, u);\n        hp_l[1] += probe_lanes();\n"
     "        { double s0 = MPI_Wtime();\n        res = stencil_step(&gr, p.r, u, unew);\n"
     "        hp_t[5] += MPI_Wtime() - s0; hp_l[2] += probe_lanes(); }"),
    ("    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);",
     "    MPI_Reduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);\n"
     "    { double s[6], mx[6], ls[3]; int q;\n"
     "      const char *nm[6] = {\"pack\", \"irecv\", \"isend\", \"waitall\", \"unpack\", \"sweep\"};\n"
     "      MPI_Reduce(hp_t, s, 6, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);\n"
     "      MPI_Reduce(hp_t, mx, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);\n"
     "      MPI_Reduce(hp_l, ls, 3, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);\n"
     "      if (rank == 0) {\n"
     "        printf(\"lanes active: before exchange %.2f after exchange %.2f after sweep %.2f\\n\",\n"
     "               ls[0] / nprocs / p.steps, ls[1] / nprocs / p.steps, ls[2] / nprocs / p.steps);\n"
     "        for (q = 0; q < 6; q++)\n"
     "          printf(\"phase %-8s mean_us_per_step %9.2f max %9.2f\\n\", nm[q], s[q] / nprocs / p.steps * 1e6,\n"
     "                 mx[q] / p.steps * 1e6); } }"),
])
