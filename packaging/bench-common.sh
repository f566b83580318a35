# shellcheck shell=bash
# Shared by packaging/bench*.sh (sourced, not run): where the CLI and the work folder are, the
# generated traces and projects the benchmarks run, and one whole-process measurement.
#
# After sourcing: $root (the checkout), $cli (ASTROLABE_CLI or the build's, built if missing),
# $work ($ASTROLABE_BENCH_DIR, kept, or a temporary folder removed at exit).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=${ASTROLABE_CLI:-$root/build/app/cli/astrolabe-cli}
[[ -x "$cli" ]] || "$root/packaging/build.sh"
if [[ -n "${ASTROLABE_BENCH_DIR:-}" ]]; then
    work=$ASTROLABE_BENCH_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

# bench_generate NAME PRESET TP PP DP [EXTRA...]: a 1F1B iteration of 8 micro-batches in
# $work/NAME/t.*.et, generated once.
bench_generate() {
    local name=$1 preset=$2 tp=$3 pp=$4 dp=$5
    shift 5
    [[ -f "$work/$name/t.0.et" ]] && return
    mkdir -p "$work/$name"
    "$cli" generate-llm --preset="$preset" --tp="$tp" --pp="$pp" --dp="$dp" --schedule=1f1b \
        --micro-batches=8 "$@" --out="$work/$name/t" >"$work/$name/generate.log"
}

# bench_project NAME TRACES BACKEND LOCAL_MEMORY SYMMETRY DIMENSION...: $work/NAME.yaml running
# the traces of bench_generate on ring algorithms over the given dimensions. SYMMETRY is true,
# false, or - to leave exploit-symmetry at its default.
bench_project() {
    local name=$1 traces=$2 backend=$3 memory=$4 symmetry=$5
    shift 5
    {
        echo "name: $name"
        echo "platform:"
        echo "  dimensions:"
        for d in "$@"; do echo "    - $d"; done
        local algorithms=""
        for _ in "$@"; do algorithms+="${algorithms:+, }ring"; done
        echo "system:"
        echo "  algorithms: {all-reduce: [$algorithms], all-gather: [$algorithms], reduce-scatter: [$algorithms], all-to-all: [$algorithms]}"
        echo "  chunks: 1"
        echo "  collective-optimization: localBWAware"
        echo "  endpoint-delay: 10 ns"
        echo "  local-memory-bandwidth: $memory"
        echo "workload:"
        echo "  trace: $work/$traces/t"
        echo "comm-groups: $work/$traces/t.comm_groups.json"
        echo "run:"
        echo "  backend: $backend"
        [[ "$symmetry" == - ]] || echo "  exploit-symmetry: $symmetry"
    } >"$work/$name.yaml"
}
ring() { echo "{type: Ring, size: $1, bandwidth: 300 GB/s, latency: 500 ns}"; }
switch() { echo "{type: Switch, size: $1, bandwidth: 25 GB/s, latency: 1000 ns}"; }

# bench_time NAME COMMAND...: runs COMMAND under /usr/bin/time -v (stdout to $work/NAME.out) and
# sets bench_wall (seconds), bench_cpu (user + system seconds) and bench_peak (MiB, unrounded).
# A failing command prints its errors and ends the benchmark.
bench_time() {
    local name=$1
    shift
    /usr/bin/time -v "$@" >"$work/$name.out" 2>"$work/$name.time" ||
        { cat "$work/$name.time" >&2; exit 1; }
    bench_wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$name.time" |
        awk -F: '{s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s}')
    bench_cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/$name.time")
    bench_peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$name.time" |
        awk '{print $1 / 1024}')
}

# The end time in cycles, all NPUs, and NPUs simulated (folded runs simulate one NPU per class
# of equivalent ranks, docs/network-models.md) of a `run` printed to $work/NAME.out.
bench_end() { sed -n 's/.*(\([0-9]*\) cycles).*/\1/p' "$work/$1.out" | head -1; }
bench_npus() { sed -n 's/^[^:]*: \([0-9]*\) NPUs on.*/\1/p' "$work/$1.out" | head -1; }
bench_simulated() {
    local simulated
    simulated=$(sed -n 's/.*(\([0-9]*\) of [0-9]* NPUs simulated.*/\1/p' "$work/$1.out" | head -1)
    echo "${simulated:-$(bench_npus "$1")}/$(bench_npus "$1")"
}

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
