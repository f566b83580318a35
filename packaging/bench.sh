#!/usr/bin/env bash
# Whole-process speed and memory of the engine on the sizes ASTRA-sim struggles with:
# a 1 GiB ring all-reduce on Switch-256, Switch-1024 (both network models), Switch-4096 and a
# 16x16x16 torus, through `astrolabe-cli run` and /usr/bin/time -v. Pass --full to also run
# Switch-1024 without the symmetric fast path (every NPU simulated).
set -euo pipefail
# shellcheck source=packaging/bench-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/bench-common.sh"

project() { # name dims backend symmetry
    cat >"$work/$1.yaml" <<YAML
name: $1
platform:
  dimensions: [$2]
system:
  algorithms: {all-reduce: [$5]}
  collective-optimization: localBWAware
  chunks: 1
  endpoint-delay: 10 ns
  local-memory-bandwidth: 50 GB/s
workload:
  microbenchmark: {collective: all-reduce, size: 1 GiB}
run:
  backend: $3
  exploit-symmetry: $4
YAML
}
sw() { echo "{type: Switch, size: $1, bandwidth: 50 GiB/s, latency: 500 ns}"; }
ring16="{type: Ring, size: 16, bandwidth: 50 GiB/s, latency: 500 ns}"
project switch256-unaware "$(sw 256)" congestion-unaware true ring
project switch1024-unaware "$(sw 1024)" congestion-unaware true ring
project switch1024-aware "$(sw 1024)" congestion-aware true ring
project switch4096-unaware "$(sw 4096)" congestion-unaware true ring
project switch4096-aware "$(sw 4096)" congestion-aware true ring
project torus16x16x16 "$ring16, $ring16, $ring16" congestion-unaware true "ring, ring, ring"
cases=(switch256-unaware switch1024-unaware switch1024-aware switch4096-unaware switch4096-aware torus16x16x16)
if [[ "${1:-}" == "--full" ]]; then
    project switch1024-unaware-full "$(sw 1024)" congestion-unaware false ring
    project switch1024-aware-full "$(sw 1024)" congestion-aware false ring
    cases+=(switch1024-unaware-full switch1024-aware-full)
fi
printf '%-26s %12s %10s %12s\n' case "end (ns)" "wall (s)" "peak (MB)"
for c in "${cases[@]}"; do
    bench_time "$c" "$cli" run "$work/$c.yaml" --no-store
    printf '%-26s %12s %10s %12.1f\n' "$c" "$(bench_end "$c")" "$bench_wall" "$bench_peak"
done

# A sweep on one worker and on one per core: the torus example's 64 points at 16 x 16
# (projects/torus-2d/sweep-16x16.yaml). The ratio is the parallel speed-up of `sweep --jobs`.
jobs=$(nproc)
cp "$root/projects/torus-2d/project.yaml" "$root/projects/torus-2d/sweep-16x16.yaml" "$work/"
printf '\n%-26s %10s %12s\n' "sweep (64 points)" "wall (s)" "peak (MB)"
for j in 1 "$jobs"; do
    bench_time "sweep-$j" "$cli" sweep "$work/sweep-16x16.yaml" --jobs "$j" --db "$work/sweep-$j.db"
    printf '%-26s %10s %12.1f\n' "--jobs $j" "$bench_wall" "$bench_peak"
done

# "Watch a collective": one animation frame on 64 NPUs (issue #21: under 16 ms), and a 64-NPU
# run with the message recorder off and on (a normal run leaves it off).
anim="$root/build/tests/bench/bench_animation"
if [[ -x "$anim" ]]; then
    printf '\n'
    QT_QPA_PLATFORM=offscreen "$anim"
fi
