#!/bin/sh
# launcher/host_mpi.c under MPICH's mpiexec: three processes agree through
# the host MPI loaded at run time, an abort in one ends them all, and a
# process started alone says it was not started by mpirun.
#   host_mpi.sh HOST_MPI_TEST
T=$1
fail() { echo "FAIL: $*"; exit 1; }
out=$(timeout 60 mpiexec.mpich -n 3 "$T" 2>&1) || fail "three processes: status $?: $out"
[ "$(echo "$out" | grep -c "(MPICH): bcast ok max ok")" -eq 3 ] || fail "three processes: $out"
timeout 60 mpiexec.mpich -n 3 "$T" abort >/dev/null 2>&1
st=$?
[ $st -ne 0 ] && [ $st -ne 124 ] || fail "an abort in process 1: status $st (124: the others did not end)"
out=$("$T" 2>&1) && fail "alone: status 0: $out"
echo "$out" | grep -q "not started by mpirun" || fail "alone: $out"
echo "ok: host MPI loaded at run time under MPICH: collectives over 3 processes, abort ends all ($st)"
