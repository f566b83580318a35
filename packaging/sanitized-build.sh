#!/usr/bin/env bash
# Builds TARGETs into build-san/ with clang under AddressSanitizer + UndefinedBehaviorSanitizer
# and libFuzzer's coverage instrumentation: one build serves both packaging/sanitize.sh (the
# engine's bad-input suites) and packaging/fuzz.sh (the readers' fuzz targets), so the engine is
# compiled once for the two instead of once by GCC and once by clang.
#   packaging/sanitized-build.sh TARGET...
# Line tables only (-gline-tables-only): a finding's stack names files and lines, and the build
# stays lighter than with full debug information. Warnings are not errors here (sanitizers make
# compilers report false positives in library headers; the normal -Werror build keeps the code
# warning-free).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build="$root/build-san"
command -v clang++ >/dev/null \
    || { echo "sanitized build: needs clang++ (packaging/install-deps.sh --fuzz)" >&2; exit 1; }
# Compiler-cache entries that do not depend on the clone's folder: paths under the checkout are
# hashed relative to it, and the line tables' build folder is left out of the hash (CI builds a
# clean clone in a new folder each time).
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
start=$SECONDS
mkdir -p "$build"
flags="-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=fuzzer-no-link,address,undefined"
flags+=" -fno-sanitize-recover=undefined"
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" -DASTROLABE_FUZZ=ON \
    -DASTROLABE_BUILD_GUI=OFF -DASTROLABE_WERROR=OFF -DASTROLABE_PCH=OFF -Wno-dev >"$build/configure.log" 2>&1 \
    || { cat "$build/configure.log"; exit 1; }
# The build's own status: under pipefail "build | grep || true" would hide it.
set +e
cmake --build "$build" -j "${JOBS:-2}" --target "$@" -- --no-print-directory 2>&1 \
    | grep -vE '^\[ *[0-9]+%\]'
status=${PIPESTATUS[0]}
set -e
if ((status != 0)); then
    echo "sanitized build: failed after $((SECONDS - start)) s (the lines above say where)" >&2
    exit "$status"
fi
echo "sanitized build: $* built in $((SECONDS - start)) s"
