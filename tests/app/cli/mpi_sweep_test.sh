#!/usr/bin/env bash
# The torus example's 64-point sweep under MPI (rank 0 and two workers) gives the metrics of the
# same sweep on threads, every point once. Run by CTest when built with ASTROLABE_WITH_MPI.
#   mpi_sweep_test.sh ASTROLABE_CLI MPIEXEC SOURCE_DIR
set -euo pipefail
cli=$1 mpiexec=$2 src=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$src/projects/torus-2d/project.yaml" "$src/projects/torus-2d/sweep.yaml" "$dir/"
# Test machines and fresh roots run as root; shared memory between local ranks only.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1

"$cli" sweep "$dir/sweep.yaml" --jobs 2 --db "$dir/threads.db" --csv "$dir/threads.csv" >"$dir/threads.log"
if ! timeout 300 "$mpiexec" --oversubscribe -n 3 "$cli" sweep "$dir/sweep.yaml" --mpi \
    --db "$dir/mpi.db" --csv "$dir/mpi.csv" >"$dir/mpi.log" 2>&1; then
    cat "$dir/mpi.log"
    echo "mpi_sweep_test: the MPI sweep failed (log above)" >&2
    exit 1
fi
grep -q "MPI: 2 worker ranks" "$dir/mpi.log" || { cat "$dir/mpi.log"; echo "not 2 workers" >&2; exit 1; }
grep -q "Ran 64 points" "$dir/mpi.log" || { cat "$dir/mpi.log"; echo "not 64 points" >&2; exit 1; }
# The run-number column (8) says when a point was stored, not what it gave: leave it out.
if ! diff <(cut -d, -f1-7,9- "$dir/threads.csv") <(cut -d, -f1-7,9- "$dir/mpi.csv"); then
    echo "mpi_sweep_test: MPI and threads differ (diff above)" >&2
    exit 1
fi
# Once each: the same command again has nothing to run.
"$mpiexec" --oversubscribe -n 3 "$cli" sweep "$dir/sweep.yaml" --mpi --db "$dir/mpi.db" >"$dir/again.log" 2>&1
grep -q "0 to run, 64 already stored" "$dir/again.log" || { cat "$dir/again.log"; exit 1; }
echo "mpi_sweep_test: 64 points under MPI identical to threads"
