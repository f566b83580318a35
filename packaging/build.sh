#!/usr/bin/env bash
# Configures and builds Release into build/ (shared by run.sh, test.sh and deb.sh).
# CI=true turns warnings into errors.
#
# A cold build takes minutes, so it shows where it is: on a terminal one line that rewrites
# itself ("[ 42%] engine/network/Transport.cpp  2m13s"), in a log a line every 10% and at
# least once a minute. Warnings and errors are printed in full as they come.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ASTROLABE_BUILD_DIR:-$root/build}
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS

mkdir -p "$build"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DASTROLABE_WERROR="$werror" \
    -Wno-dev "$@" >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }

elapsed() { printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }

# Reads make's output: progress lines become the compact status, everything else (warnings,
# errors, notes from the compiler and linker) passes through unchanged.
show_progress() {
    local tty=0 shown=-10 last_print=$SECONDS line percent what
    [[ -t 1 ]] && tty=1
    while IFS= read -r line; do
        if [[ "$line" =~ ^\[\ *([0-9]+)%\]\ (.*)$ ]]; then
            percent=${BASH_REMATCH[1]}
            what=${BASH_REMATCH[2]}
            what=${what#Building CXX object }
            what=${what#Linking CXX }
            what=${what//CMakeFiles\/*.dir\//}
            what=${what%.o}
            if ((tty)); then
                printf '\r\033[K[%3d%%] %.60s  %s' "$percent" "$what" "$(elapsed)"
            elif ((percent >= shown + 10 || SECONDS - last_print >= 60)); then
                printf '[%3d%%] %s  %s\n' "$percent" "$what" "$(elapsed)"
                shown=$((percent - percent % 10))
                last_print=$SECONDS
            fi
        elif [[ -n "$line" && ! "$line" =~ ^(Consolidate\ compiler\ generated|Scanning\ dependencies|Automatic\ MOC|Running\ (cpp|moc|rcc|protocol)|Generating\ ) ]]; then
            ((tty)) && printf '\r\033[K'
            printf '%s\n' "$line"
        fi
    done
    ((tty)) && printf '\r\033[K'
    return 0
}

set +e
cmake --build "$build" -j "$jobs" -- --no-print-directory 2>&1 | show_progress
status=${PIPESTATUS[0]}
set -e
if ((status != 0)); then
    echo "build: failed after $(elapsed) (the lines above say where)" >&2
    exit "$status"
fi
echo "build: done in $(elapsed)"
