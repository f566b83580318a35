#!/usr/bin/env bash
# Whole training iterations at scale (issue #22): generated traces through `astrolabe-cli run`
# under /usr/bin/time -v, printing wall time, peak memory, events per second and, where the
# issue measured ASTRA-sim on the same traces, the ratio to it.
#
#   packaging/bench-iterations.sh            the three rows of the issue (128 and 1,024 NPUs)
#   packaging/bench-iterations.sh --full     also GPT-3 on 4,096 NPUs, Llama-3 405B and
#                                            DeepSeek-V3 on 2,048 NPUs (minutes, several GB)
#
# Traces are generated once into $ASTROLABE_BENCH_DIR (default: a temporary folder removed at
# the end); set it to keep them between runs.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cli="$root/build/app/cli/astrolabe-cli"
[[ -x "$cli" ]] || "$root/packaging/build.sh"
if [[ -n "${ASTROLABE_BENCH_DIR:-}" ]]; then
    work=$ASTROLABE_BENCH_DIR
    mkdir -p "$work"
else
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
fi

# generate NAME PRESET TP PP DP [EXTRA...]: traces in $work/NAME/t.*.et, once.
generate() {
    local name=$1 preset=$2 tp=$3 pp=$4 dp=$5
    shift 5
    [[ -f "$work/$name/t.0.et" ]] && return
    mkdir -p "$work/$name"
    "$cli" generate-llm --preset="$preset" --tp="$tp" --pp="$pp" --dp="$dp" --schedule=1f1b \
        --micro-batches=8 "$@" --out="$work/$name/t" >"$work/$name/generate.log"
}

# project NAME TRACES BACKEND DIMENSION...: one project per row.
project() {
    local name=$1 traces=$2 backend=$3
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
        echo "  local-memory-bandwidth: 50 GB/s"
        echo "workload:"
        echo "  trace: $work/$traces/t"
        echo "comm-groups: $work/$traces/t.comm_groups.json"
        echo "run:"
        echo "  backend: $backend"
    } >"$work/$name.yaml"
}
ring() { echo "{type: Ring, size: $1, bandwidth: 300 GB/s, latency: 500 ns}"; }
switch() { echo "{type: Switch, size: $1, bandwidth: 25 GB/s, latency: 1000 ns}"; }

# The issue's ASTRA-sim figures on this machine kind: wall seconds and peak MB per row.
declare -A astraWall=([gpt3-128-ring8xswitch16]=27.5 [gpt3-128-ring128-aware]=65.9
    [gpt3-1024-ring8xswitch128]=118)
declare -A astraPeak=([gpt3-128-ring8xswitch16]=411 [gpt3-128-ring128-aware]=416
    [gpt3-1024-ring8xswitch128]=1701)

generate gpt3-128 gpt3-175b 8 4 4
generate gpt3-1024 gpt3-175b 8 8 16
project gpt3-128-ring8xswitch16 gpt3-128 congestion-unaware "$(ring 8)" "$(switch 16)"
project gpt3-128-ring128-aware gpt3-128 congestion-aware "$(ring 128)"
project gpt3-1024-ring8xswitch128 gpt3-1024 congestion-unaware "$(ring 8)" "$(switch 128)"
cases=(gpt3-128-ring8xswitch16 gpt3-128-ring128-aware gpt3-1024-ring8xswitch128)
if [[ "${1:-}" == "--full" ]]; then
    generate gpt3-4096 gpt3-175b 8 16 32
    generate llama3-2048 llama3-405b 8 16 16
    generate deepseek-2048 deepseek-v3 8 16 16 --ep=8
    project gpt3-4096-ring8xswitch512 gpt3-4096 congestion-unaware "$(ring 8)" "$(switch 512)"
    project llama3-2048-ring8xswitch256 llama3-2048 congestion-unaware "$(ring 8)" "$(switch 256)"
    project deepseek-2048-ring8xswitch256 deepseek-2048 congestion-unaware "$(ring 8)" \
        "$(switch 256)"
    cases+=(gpt3-4096-ring8xswitch512 llama3-2048-ring8xswitch256 deepseek-2048-ring8xswitch256)
fi

printf '%-32s %16s %9s %9s %12s %11s %14s\n' case "end (cycles)" "wall (s)" "peak (MB)" "events/s" \
    "simulated" "vs ASTRA-sim"
for c in "${cases[@]}"; do
    /usr/bin/time -v "$cli" run "$work/$c.yaml" --no-store >"$work/$c.out" 2>"$work/$c.time" ||
        { cat "$work/$c.time" >&2; exit 1; }
    end=$(sed -n 's/.*(\([0-9]*\) cycles).*/\1/p' "$work/$c.out" | head -1)
    events=$(sed -n 's/.*, \([0-9]*\) events.*/\1/p' "$work/$c.out" | head -1)
    # Folded runs simulate one NPU per class of equivalent ranks (docs/network-models.md).
    npus=$(sed -n 's/^[^:]*: \([0-9]*\) NPUs on.*/\1/p' "$work/$c.out" | head -1)
    simulated=$(sed -n 's/.*(\([0-9]*\) of [0-9]* NPUs simulated.*/\1/p' "$work/$c.out" | head -1)
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$c.time")
    seconds=$(awk -F: '{s = 0; for (i = 1; i <= NF; ++i) s = s * 60 + $i; print s}' <<<"$wall")
    peak=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$c.time")
    peak=$(awk -v k="$peak" 'BEGIN{printf "%.0f", k / 1024}')
    rate=$(awk -v e="$events" -v s="$seconds" 'BEGIN{printf "%.2fM", e / s / 1e6}')
    ratio="-"
    if [[ -n "${astraWall[$c]:-}" ]]; then
        ratio=$(awk -v a="${astraWall[$c]}" -v s="$seconds" -v ap="${astraPeak[$c]}" -v p="$peak" \
            'BEGIN{printf "%.1fx / %.1fx", a / s, ap / p}')
    fi
    printf '%-32s %16s %9s %9s %12s %11s %14s\n' "$c" "$end" "$seconds" "$peak" "$rate" \
        "${simulated:-$npus}/$npus" "$ratio"
done
