#!/usr/bin/env bash
# The congestion-aware model at scale (issue #52): a generated GPT-3 175B iteration (1F1B,
# 8 micro-batches) through `astrolabe-cli run` under /usr/bin/time -v, wall time and peak
# resident memory of the whole process (trace loading included), and its CPU time (user + sys:
# the steadier figure on a shared machine; the run is single-threaded but for the trace reader):
#   gpt3-128-ring128-aware     TP8 PP8 DP2 on a 1-D Ring 128 (ASTRA-sim's congestion-aware
#                              backend can run it: the issue measured 16.6 s and 216 MB)
#   gpt3-1024-ring8xswitch128  TP8 PP8 DP16 on Ring 8 x Switch 128, our multi-dimensional
#                              congestion-aware model
#
#   packaging/bench-aware.sh [--full] [RUNS]   RUNS runs per case (default 1), medians printed;
#                                              --full also runs each case with exploit-symmetry
#                                              off (every NPU simulated)
# Traces are generated once into $ASTROLABE_BENCH_DIR (default: a temporary folder).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli=${ASTROLABE_CLI:-$root/build/app/cli/astrolabe-cli}
[[ -x "$cli" ]] || "$root/packaging/build.sh"
full=false
if [[ "${1:-}" == "--full" ]]; then
    full=true
    shift
fi
runs=${1:-1}
if [[ -n "${ASTROLABE_BENCH_DIR:-}" ]]; then
    work=$ASTROLABE_BENCH_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

generate() { # NAME TP PP DP
    [[ -f "$work/$1/t.0.et" ]] && return
    mkdir -p "$work/$1"
    "$cli" generate-llm --preset=gpt3-175b --tp="$2" --pp="$3" --dp="$4" --schedule=1f1b \
        --micro-batches=8 --out="$work/$1/t" >"$work/$1/generate.log"
}

project() { # NAME TRACES SYMMETRY DIMENSION...
    local name=$1 traces=$2 symmetry=$3
    shift 3
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
        echo "  local-memory-bandwidth: 1600 GB/s"
        echo "workload:"
        echo "  trace: $work/$traces/t"
        echo "comm-groups: $work/$traces/t.comm_groups.json"
        echo "run:"
        echo "  backend: congestion-aware"
        echo "  exploit-symmetry: $symmetry"
    } >"$work/$name.yaml"
}
ring() { echo "{type: Ring, size: $1, bandwidth: 300 GB/s, latency: 500 ns}"; }
switch() { echo "{type: Switch, size: $1, bandwidth: 25 GB/s, latency: 1000 ns}"; }

generate gpt3-128-pp8 8 8 2
generate gpt3-1024 8 8 16
project gpt3-128-ring128-aware gpt3-128-pp8 true "$(ring 128)"
project gpt3-1024-ring8xswitch128 gpt3-1024 true "$(ring 8)" "$(switch 128)"
cases=(gpt3-128-ring128-aware gpt3-1024-ring8xswitch128)
if $full; then
    project gpt3-128-ring128-aware-full gpt3-128-pp8 false "$(ring 128)"
    project gpt3-1024-ring8xswitch128-full gpt3-1024 false "$(ring 8)" "$(switch 128)"
    cases+=(gpt3-128-ring128-aware-full gpt3-1024-ring8xswitch128-full)
fi

# ASTRA-sim's congestion-aware backend on the 128-NPU case, measured on this machine kind
# (issue #52): wall seconds and peak MiB (ASTRA-sim's 216 is compared as given).
declare -A astraWall=([gpt3-128-ring128-aware]=16.6 [gpt3-128-ring128-aware-full]=16.6)
declare -A astraPeak=([gpt3-128-ring128-aware]=216 [gpt3-128-ring128-aware-full]=216)

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf '%-34s %16s %9s %8s %9s %10s %14s\n' case "end (cycles)" "wall (s)" "cpu (s)" "peak (MiB)" \
    "simulated" "vs ASTRA-sim"
for c in "${cases[@]}"; do
    walls=() cpus=() peaks=()
    for ((i = 0; i < runs; ++i)); do
        /usr/bin/time -v "$cli" run "$work/$c.yaml" --no-store >"$work/$c.out" 2>"$work/$c.time" ||
            { cat "$work/$c.time" >&2; exit 1; }
        wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$c.time")
        walls+=("$(awk -F: '{s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s}' <<<"$wall")")
        cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$work/$c.time")")
        peaks+=("$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$c.time")")
    done
    end=$(sed -n 's/.*(\([0-9]*\) cycles).*/\1/p' "$work/$c.out" | head -1)
    npus=$(sed -n 's/^[^:]*: \([0-9]*\) NPUs on.*/\1/p' "$work/$c.out" | head -1)
    simulated=$(sed -n 's/.*(\([0-9]*\) of [0-9]* NPUs simulated.*/\1/p' "$work/$c.out" | head -1)
    seconds=$(printf '%s\n' "${walls[@]}" | median)
    cpu=$(printf '%s\n' "${cpus[@]}" | median)
    peak=$(printf '%s\n' "${peaks[@]}" | median | awk '{printf "%.0f", $1 / 1024}')
    ratio="-"
    if [[ -n "${astraWall[$c]:-}" ]]; then
        ratio=$(awk -v a="${astraWall[$c]}" -v s="$seconds" -v ap="${astraPeak[$c]}" -v p="$peak" \
            'BEGIN{printf "%.1fx / %.1fx", a / s, ap / p}')
    fi
    printf '%-34s %16s %9s %8s %9s %10s %14s\n' "$c" "$end" "$seconds" "$cpu" "$peak" \
        "${simulated:-$npus}/$npus" "$ratio"
done
