#!/usr/bin/env bash
# Fuzzes every reader of user files with libFuzzer (Debian's clang) under ASan + UBSan, each for
# SECONDS (default 60), JOBS at a time (default 2). The seed corpus and past findings are in
# tests/fuzz/corpus/<target>/; what the fuzzer adds goes to build-san/corpus/<target>/, a crash,
# leak, time-out (10 s) or memory blow-up (2 GiB) to build-san/findings/<target>/. Exits non-zero
# if any target has a finding; copy it into tests/fuzz/corpus/<target>/ once fixed.
# A long run is cut into fresh processes of SEGMENT seconds (default 1200) on the growing corpus:
# libFuzzer's and ASan's own memory grows with a run (the project reader's fuzzer passes 1.3 GiB in
# 90 minutes), and reaching the 2 GiB limit that way would count as a finding that is none.
#   [JOBS=N] [SEGMENT=S] packaging/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-san"
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(chakra chakra_lenient kineto network system memory comm_groups project
                                      msccl sweep nccl_tests nccl_fit graph_csv lesson blobs request_traces
                                      pytorch_link)
jobs=${JOBS:-2}
segment=${SEGMENT:-1200}

declare -A dict=([chakra]=chakra [chakra_lenient]=chakra [kineto]=kineto [network]=yaml [project]=yaml
                 [system]=json [memory]=json [comm_groups]=json [msccl]=xml [sweep]=yaml
                 [nccl_tests]=nccl_tests [nccl_fit]=nccl_tests [graph_csv]=csv [lesson]=lesson [blobs]=blobs
                 [request_traces]=csv [pytorch_link]=pytorch_link)

start=$SECONDS
"$root/packaging/sanitized-build.sh" "${targets[@]/#/fuzz_}"
echo "fuzz: built in $((SECONDS - start)) s; ${#targets[@]} targets for $seconds s each, $jobs at a time"

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
run_one() {
    local t=$1 left=$seconds part parts=0 before
    mkdir -p "$build/corpus/$t" "$build/findings/$t"
    : >"$build/$t.log"
    before=$(find "$build/findings/$t" -type f | wc -l)
    while ((left > 0)) && (($(find "$build/findings/$t" -type f | wc -l) == before)); do
        part=$((left < segment ? left : segment))
        "$build/tests/fuzz/fuzz_$t" "$build/corpus/$t" "$root/tests/fuzz/corpus/$t" \
            -dict="$root/tests/fuzz/dict/${dict[$t]}.dict" -max_total_time="$part" \
            -rss_limit_mb=2048 -malloc_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
            -artifact_prefix="$build/findings/$t/" >>"$build/$t.log" 2>&1 || true
        left=$((left - part))
        parts=$((parts + 1))
    done
    local runs cov rss found
    runs=$(grep -oE 'stat::number_of_executed_units: *[0-9]+' "$build/$t.log" |
        awk '{ n += $2 } END { print n + 0 }')
    cov=$(grep -oE 'cov: [0-9]+' "$build/$t.log" | tail -n 1 | grep -oE '[0-9]+' || echo 0)
    rss=$(grep -oE 'stat::peak_rss_mb: *[0-9]+' "$build/$t.log" | awk '$2 > m { m = $2 } END { print m + 0 }')
    found=$(find "$build/findings/$t" -type f | wc -l)
    printf 'fuzz: %-12s %12s executions, %6s edges covered, %s findings (%s s in %s run(s), peak %s MiB)\n' \
        "$t" "$runs" "$cov" "$found" "$seconds" "$parts" "$rss"
}
running=0
for t in "${targets[@]}"; do
    run_one "$t" &
    running=$((running + 1))
    if ((running >= jobs)); then
        wait -n
        running=$((running - 1))
    fi
done
wait

findings=$(find "$build/findings" -type f | wc -l)
if ((findings > 0)); then
    find "$build/findings" -type f | while read -r f; do
        echo "fuzz: finding $f"
        grep -hE 'fuzz finding|ERROR: (AddressSanitizer|libFuzzer|LeakSanitizer)|runtime error' \
            "$build/$(basename "$(dirname "$f")").log" | head -n 3
    done
    exit 1
fi
echo "fuzz: no findings ($((SECONDS - start)) s in all)"
