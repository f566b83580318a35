#!/usr/bin/env bash
# The planner's top-K simulations under MPI (optimize parallelism --mpi, two ranks) give the
# simulated times of the same run on threads, candidate by candidate. Run by CTest when built
# with ASTROLABE_WITH_MPI.
#   mpi_plan_test.sh ASTROLABE_CLI MPIEXEC SOURCE_DIR
set -euo pipefail
cli=$1 mpiexec=$2 src=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_rmaps_base_oversubscribe=1
args=(optimize parallelism "$src/projects/validation/selene-a100.yaml" --model gpt2-124m
      --set layers=2 --gpus 16 --global-batch 32 --top 5 --json)
"$cli" "${args[@]}" --jobs 2 >"$dir/threads.json"
if ! timeout 300 "$mpiexec" --oversubscribe -n 2 "$cli" "${args[@]}" --jobs 1 --mpi \
    >"$dir/mpi.json" 2>"$dir/mpi.log"; then
    cat "$dir/mpi.log"
    echo "mpi_plan_test: the planner under MPI failed (log above)" >&2
    exit 1
fi
grep -q "MPI: 2 ranks" "$dir/mpi.log" || { cat "$dir/mpi.log"; echo "not 2 ranks" >&2; exit 1; }
# Label and simulated time of each of the top 5, in the estimate's order.
times() { grep -E '"(label|simulated_seconds)"' "$1" | head -20; }
n=$(grep -c '"simulated_seconds"' "$dir/mpi.json" || true)
[[ $n -ge 5 ]] || { cat "$dir/mpi.json"; echo "mpi_plan_test: fewer than 5 simulated" >&2; exit 1; }
if ! diff <(times "$dir/threads.json") <(times "$dir/mpi.json"); then
    echo "mpi_plan_test: MPI and threads differ (diff above)" >&2
    exit 1
fi
grep -q '"simulated_seconds": 0.0,' "$dir/mpi.json" && { echo "a candidate failed" >&2; exit 1; }
echo "mpi_plan_test: the top 5 under 2 MPI ranks simulate as on threads"
