#!/usr/bin/env bash
# Configures and builds Release into build/ (shared by run.sh and test.sh).
# CI=true turns warnings into errors.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$root/build" -DCMAKE_BUILD_TYPE=Release -DASTROLABE_WERROR="$werror" \
    -Wno-dev >"$root/build-configure.log" 2>&1 || { cat "$root/build-configure.log"; exit 1; }
cmake --build "$root/build" -j "$jobs" -- --no-print-directory 2>&1 | grep -vE '^\[ *[0-9]+%\]' || true
test "${PIPESTATUS[0]}" -eq 0
