#!/usr/bin/env bash
# Builds the engine tests with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and
# runs the Chakra reader and bad-input suites under them: broken traces must be refused with a
# message, never read out of bounds, overflow or leak. Exits non-zero on any finding.
# Warnings are not errors here: GCC 12 reports false maybe-uninitialized in libstdc++ headers
# when sanitizers are on (the normal -Werror build keeps the code warning-free).
#   packaging/sanitize.sh [gtest filter]   (default: trace reader, bad inputs, executor, golden vectors)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-asan"
filter=${1:-'*BadInput*:*Chakra*:Executor.*:Golden.*:BadConfig*:Symmetry.*'}
jobs=${JOBS:-2}
mkdir -p "$build"
# -O1 without debug info: the sanitizers still see every access, and the build (the longest
# part of this stage) is lighter than RelWithDebInfo.
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="-O1 -fno-omit-frame-pointer" \
    -DASTROLABE_SANITIZE=address,undefined -DASTROLABE_BUILD_GUI=OFF -DASTROLABE_WERROR=OFF \
    -Wno-dev >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
cmake --build "$build" -j "$jobs" --target engine_tests -- --no-print-directory 2>&1 \
    | grep -vE '^\[ *[0-9]+%\]' || true
test "${PIPESTATUS[0]}" -eq 0
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
"$build/tests/engine/engine_tests" --gtest_filter="$filter"
