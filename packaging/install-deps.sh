#!/usr/bin/env bash
# Installs the Debian 12 packages Astrolabe needs, and only those that are missing.
# Idempotent and quiet when everything is present. Runs apt-get as root, or through sudo.
# The list is proved complete on a fresh Debian 12 minbase root by packaging/fresh-root-check.sh
# (apt-get runs with --no-install-recommends, so every package a build step needs is named here,
# e.g. libqt6opengl6-dev, which qt6-charts-dev's CMake files require but do not depend on).
#   install-deps.sh         what the README's two commands need (build, run, test headless)
#   install-deps.sh --deb   and what packaging/deb.sh needs to build the Debian package
#   install-deps.sh --fuzz  and what packaging/fuzz.sh and probe.sh need (clang with libFuzzer, python3, time)
set -euo pipefail

packages=(
    cmake ninja-build mold g++ make pkg-config ccache clang-format
    qt6-base-dev qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libgl-dev
    libyaml-cpp-dev libsqlite3-dev libprotobuf-dev protobuf-compiler zlib1g-dev
    nlohmann-json3-dev libpugixml-dev libnlopt-dev libopenmpi-dev openmpi-bin libns3-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    xvfb xauth fonts-dejavu-core
)
for group in "$@"; do
    case "$group" in
    --deb) packages+=(dpkg-dev file) ;;            # dpkg-shlibdeps declares the dependencies
    --fuzz) packages+=(clang libclang-rt-14-dev python3 time) ;; # libFuzzer, sanitizers, probe.sh
    *) echo "install-deps: unknown option '$group' (expected --deb or --fuzz)" >&2; exit 2 ;;
    esac
done

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]} (a few minutes on a fresh machine)"
if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# apt's own chatter goes to a log that is printed only when something fails.
if ! { "${sudo[@]}" apt-get update -qq && "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-deps: apt-get failed (its output is above)" >&2
    exit 1
fi
echo "install-deps: done"
