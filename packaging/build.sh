#!/usr/bin/env bash
# Configures and builds Release into build/ (shared by run.sh, test.sh and deb.sh).
#   packaging/build.sh            everything: the GUI, the CLI, the tests and the benchmarks
#   packaging/build.sh --app      only what run.sh runs: the GUI, the CLI and their libraries
#   packaging/build.sh [--app] -DNAME=VALUE...   extra CMake settings
# Both build into the same folder, so a full build after --app compiles only the rest.
# CI=true turns warnings into errors. Ninja builds when it is installed (install-deps.sh brings
# it); a folder configured earlier keeps the generator it was made with.
#
# A cold build takes minutes, so it shows where it is and roughly how long remains, from the
# share of build steps done so far: on a terminal one line that rewrites itself
# ("[212/380] engine/network/Transport.cpp  2m13s, about 1m40s left"), in a log a line every 10%
# and at least once a minute. Warnings and errors are printed in full as they come.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ASTROLABE_BUILD_DIR:-$root/build}
targets=()
if [[ "${1:-}" == "--app" ]]; then
    shift
    targets=(astrolabe-cli)
    # The GUI unless the caller turned it off.
    [[ " $* " == *" -DASTROLABE_BUILD_GUI=OFF "* ]] || targets+=(astrolabe)
fi
werror=OFF
[[ "${CI:-}" == "true" ]] && werror=ON
jobs=$(nproc 2>/dev/null || echo 2)
start=$SECONDS

generator=()
if [[ ! -f "$build/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
fi
mkdir -p "$build"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DASTROLABE_WERROR="$werror" \
    -Wno-dev "$@" >"$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }

elapsed() { printf '%dm%02ds' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)); }
# "about 1m40s left" from the steps done and the time they took; nothing until enough is done
# for the figure to mean something.
remaining() { # done total
    local spent=$((SECONDS - start)) left
    (($1 >= 8 && spent >= 15 && $1 < $2)) || return 0
    left=$((spent * ($2 - $1) / $1))
    printf ', about %dm%02ds left' $((left / 60)) $((left % 60))
}

# Reads the build tool's output: progress lines (Ninja's "[done/total] ..." or make's
# "[ 42%] ...") become the compact status, everything else (warnings, errors, notes from the
# compiler and linker) passes through unchanged.
show_progress() {
    local tty=0 shown=-10 last_print=$SECONDS line percent what status status_tail
    [[ -t 1 ]] && tty=1
    while IFS= read -r line; do
        status=""
        if [[ "$line" =~ ^\[([0-9]+)/([0-9]+)\]\ (.*)$ ]]; then
            percent=$((100 * BASH_REMATCH[1] / BASH_REMATCH[2]))
            what=${BASH_REMATCH[3]}
            status="[${BASH_REMATCH[1]}/${BASH_REMATCH[2]}]"
            status_tail=$(remaining "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}")
        elif [[ "$line" =~ ^\[\ *([0-9]+)%\]\ (.*)$ ]]; then
            percent=${BASH_REMATCH[1]}
            what=${BASH_REMATCH[2]}
            status=$(printf '[%3d%%]' "$percent")
            status_tail=$(remaining "$percent" 100)
        fi
        if [[ -n "$status" ]]; then
            what=${what#Building CXX object }
            what=${what#Linking CXX }
            what=${what//CMakeFiles\/*.dir\//}
            what=${what%.o}
            if ((tty)); then
                printf '\r\033[K%s %.50s  %s%s' "$status" "$what" "$(elapsed)" "$status_tail"
            elif ((percent >= shown + 10 || SECONDS - last_print >= 60)); then
                printf '%s %s  %s%s\n' "$status" "$what" "$(elapsed)" "$status_tail"
                shown=$((percent - percent % 10))
                last_print=$SECONDS
            fi
        elif [[ -n "$line" && ! "$line" =~ ^(Consolidate\ compiler\ generated|Scanning\ dependencies|Automatic\ MOC|Running\ (cpp|moc|rcc|protocol)|Generating\ |ninja:\ (Entering|Leaving|no\ work)) ]]; then
            ((tty)) && printf '\r\033[K'
            printf '%s\n' "$line"
        fi
    done
    ((tty)) && printf '\r\033[K'
    return 0
}

target_args=()
for t in "${targets[@]}"; do target_args+=(--target "$t"); done
tool_args=()
grep -q '^CMAKE_GENERATOR:INTERNAL=Unix Makefiles' "$build/CMakeCache.txt" && tool_args=(-- --no-print-directory)
set +e
NINJA_STATUS='[%f/%t] ' cmake --build "$build" -j "$jobs" "${target_args[@]}" "${tool_args[@]}" 2>&1 | show_progress
status=${PIPESTATUS[0]}
set -e
if ((status != 0)); then
    echo "build: failed after $(elapsed) (the lines above say where)" >&2
    exit "$status"
fi
echo "build: ${targets[*]:-everything} done in $(elapsed)"
