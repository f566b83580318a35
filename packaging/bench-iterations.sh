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
# shellcheck source=packaging/bench-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-common.sh"

# The issue's ASTRA-sim figures on this machine kind: wall seconds and peak MB per row.
declare -A astraWall=([gpt3-128-ring8xswitch16]=27.5 [gpt3-128-ring128-aware]=65.9
    [gpt3-1024-ring8xswitch128]=118)
declare -A astraPeak=([gpt3-128-ring8xswitch16]=411 [gpt3-128-ring128-aware]=416
    [gpt3-1024-ring8xswitch128]=1701)

# project NAME TRACES BACKEND DIMENSION...: one row, local memory at 50 GB/s, folding as default.
project() { bench_project "$1" "$2" "$3" "50 GB/s" - "${@:4}"; }

bench_generate gpt3-128 gpt3-175b 8 4 4
bench_generate gpt3-1024 gpt3-175b 8 8 16
project gpt3-128-ring8xswitch16 gpt3-128 congestion-unaware "$(ring 8)" "$(switch 16)"
project gpt3-128-ring128-aware gpt3-128 congestion-aware "$(ring 128)"
project gpt3-1024-ring8xswitch128 gpt3-1024 congestion-unaware "$(ring 8)" "$(switch 128)"
cases=(gpt3-128-ring8xswitch16 gpt3-128-ring128-aware gpt3-1024-ring8xswitch128)
if [[ "${1:-}" == "--full" ]]; then
    bench_generate gpt3-4096 gpt3-175b 8 16 32
    bench_generate llama3-2048 llama3-405b 8 16 16
    bench_generate deepseek-2048 deepseek-v3 8 16 16 --ep=8
    project gpt3-4096-ring8xswitch512 gpt3-4096 congestion-unaware "$(ring 8)" "$(switch 512)"
    project llama3-2048-ring8xswitch256 llama3-2048 congestion-unaware "$(ring 8)" "$(switch 256)"
    project deepseek-2048-ring8xswitch256 deepseek-2048 congestion-unaware "$(ring 8)" \
        "$(switch 256)"
    cases+=(gpt3-4096-ring8xswitch512 llama3-2048-ring8xswitch256 deepseek-2048-ring8xswitch256)
fi

printf '%-32s %16s %9s %9s %12s %11s %14s\n' case "end (cycles)" "wall (s)" "peak (MB)" "events/s" \
    "simulated" "vs ASTRA-sim"
for c in "${cases[@]}"; do
    bench_time "$c" "$cli" run "$work/$c.yaml" --no-store
    seconds=$bench_wall
    peak=$(awk -v p="$bench_peak" 'BEGIN{printf "%.0f", p}')
    events=$(sed -n 's/.*, \([0-9]*\) events.*/\1/p' "$work/$c.out" | head -1)
    rate=$(awk -v e="$events" -v s="$seconds" 'BEGIN{printf "%.2fM", e / s / 1e6}')
    ratio="-"
    if [[ -n "${astraWall[$c]:-}" ]]; then
        ratio=$(awk -v a="${astraWall[$c]}" -v s="$seconds" -v ap="${astraPeak[$c]}" -v p="$peak" \
            'BEGIN{printf "%.1fx / %.1fx", a / s, ap / p}')
    fi
    printf '%-32s %16s %9s %9s %12s %11s %14s\n' "$c" "$(bench_end "$c")" "$seconds" "$peak" \
        "$rate" "$(bench_simulated "$c")" "$ratio"
done
