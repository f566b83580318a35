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
full=false
if [[ "${1:-}" == "--full" ]]; then
    full=true
    shift
fi
runs=${1:-1}
# shellcheck source=packaging/bench-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-common.sh"

memory="1600 GB/s"
bench_generate gpt3-128-pp8 gpt3-175b 8 8 2
bench_generate gpt3-1024 gpt3-175b 8 8 16
bench_project gpt3-128-ring128-aware gpt3-128-pp8 congestion-aware "$memory" true "$(ring 128)"
bench_project gpt3-1024-ring8xswitch128 gpt3-1024 congestion-aware "$memory" true "$(ring 8)" \
    "$(switch 128)"
cases=(gpt3-128-ring128-aware gpt3-1024-ring8xswitch128)
if $full; then
    bench_project gpt3-128-ring128-aware-full gpt3-128-pp8 congestion-aware "$memory" false \
        "$(ring 128)"
    bench_project gpt3-1024-ring8xswitch128-full gpt3-1024 congestion-aware "$memory" false \
        "$(ring 8)" "$(switch 128)"
    cases+=(gpt3-128-ring128-aware-full gpt3-1024-ring8xswitch128-full)
fi

# ASTRA-sim's congestion-aware backend on the 128-NPU case, measured on this machine kind
# (issue #52): wall seconds and peak MiB (ASTRA-sim's 216 is compared as given).
declare -A astraWall=([gpt3-128-ring128-aware]=16.6 [gpt3-128-ring128-aware-full]=16.6)
declare -A astraPeak=([gpt3-128-ring128-aware]=216 [gpt3-128-ring128-aware-full]=216)

printf '%-34s %16s %9s %8s %9s %10s %14s\n' case "end (cycles)" "wall (s)" "cpu (s)" "peak (MiB)" \
    "simulated" "vs ASTRA-sim"
for c in "${cases[@]}"; do
    walls=() cpus=() peaks=()
    for ((i = 0; i < runs; ++i)); do
        bench_time "$c" "$cli" run "$work/$c.yaml" --no-store
        walls+=("$bench_wall") cpus+=("$bench_cpu") peaks+=("$bench_peak")
    done
    seconds=$(printf '%s\n' "${walls[@]}" | median)
    cpu=$(printf '%s\n' "${cpus[@]}" | median)
    peak=$(printf '%s\n' "${peaks[@]}" | median | awk '{printf "%.0f", $1}')
    ratio="-"
    if [[ -n "${astraWall[$c]:-}" ]]; then
        ratio=$(awk -v a="${astraWall[$c]}" -v s="$seconds" -v ap="${astraPeak[$c]}" -v p="$peak" \
            'BEGIN{printf "%.1fx / %.1fx", a / s, ap / p}')
    fi
    printf '%-34s %16s %9s %8s %9s %10s %14s\n' "$c" "$(bench_end "$c")" "$seconds" "$cpu" "$peak" \
        "$(bench_simulated "$c")" "$ratio"
done
