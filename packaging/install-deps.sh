#!/usr/bin/env bash
# Installs the Debian 12 packages Astrolabe needs, and only those that are missing.
# Idempotent and quiet when everything is present. Runs apt-get as root, or through sudo.
set -euo pipefail

packages=(
    cmake g++ make pkg-config ccache clang-format
    qt6-base-dev qt6-charts-dev qt6-svg-dev libgl-dev
    libyaml-cpp-dev libsqlite3-dev libprotobuf-dev protobuf-compiler zlib1g-dev
    nlohmann-json3-dev
    libgtest-dev libgmock-dev libbenchmark-dev
    xvfb xauth
)

missing=()
for p in "${packages[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
    [[ "$status" == "install ok installed" ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -eq 0 ]]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "install-deps: need root or sudo to install: ${missing[*]}" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
