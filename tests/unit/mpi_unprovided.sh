#!/bin/sh
# The MPI calls outside gpumpi's scope build, and are errors only when
# they run.
#   mpi_unprovided.sh BUILD_DIR SOURCE_DIR
BUILD=$1 SRC=$2
. "$SRC/tests/e2e/checks.sh"
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# One-sided communication, MPI-IO and dynamic processes (outside gpumpi's
# scope, runtime/include/gpumpi/mpi_unsupported.h): a program that has such
# calls builds (a warning names each call) and runs as long as none runs;
# one that runs ends the job naming the call and what is missing.
cat >"$W/u.c" <<'EOC'
#include <mpi.h>
#include <stdio.h>
#include <string.h>
static void out_of_scope(const char *which)
{
    int buf[4];
    MPI_Win win;
    MPI_File fh;
    if (!strcmp(which, "win")) MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (!strcmp(which, "file")) MPI_File_open(MPI_COMM_WORLD, "data", MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
    if (!strcmp(which, "spawn"))
        MPI_Comm_spawn("worker", MPI_ARGV_NULL, 2, MPI_INFO_NULL, 0, MPI_COMM_WORLD, 0, MPI_ERRCODES_IGNORE);
}
int main(int argc, char **argv)
{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (argc > 1) out_of_scope(argv[1]);
    printf("rank %d: done\n", rank);
    MPI_Finalize();
    return 0;
}
EOC
"$BUILD/bin/gpumpicc" --backend=threads "$W/u.c" -o "$W/u" 2>"$W/err" || fail "a program with one-sided, MPI-IO and spawn calls did not build: $(cat "$W/err")"
for f in MPI_Win_create MPI_File_open MPI_Comm_spawn; do
    grep -q "$f.*gpumpi does not support" "$W/err" || fail "no warning names $f: $(cat "$W/err")"
done
"$BUILD/bin/gpumpirun" -n 2 "$W/u" >"$W/out" 2>"$W/err" || fail "it did not run without calling them: $(cat "$W/err")"
[ "$(grep -c "done" "$W/out")" -eq 2 ] || fail "it did not run without calling them: $(cat "$W/out")"
for c in "win MPI_Win_create: gpumpi does not support one-sided communication" \
         "file MPI_File_open: gpumpi does not support MPI-IO" \
         "spawn MPI_Comm_spawn: gpumpi does not support dynamic processes"; do
    "$BUILD/bin/gpumpirun" -n 2 "$W/u" "${c%% *}" >"$W/out" 2>"$W/err" && fail "a call of ${c%% *} did not end the job"
    grep -q "^rank [01]: ${c#* }" "$W/err" || fail "${c%% *}: the job ended without saying \"${c#* }\": $(cat "$W/err")"
done
note "one-sided, MPI-IO and spawn calls build (with a warning) and end the job only when they run, naming the call"
