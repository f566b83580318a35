#!/usr/bin/env bash
# Builds the Debian package astrolabe_<version>_amd64.deb into build/ with CPack: the GUI, the
# CLI, the example projects under /usr/share/astrolabe, a .desktop file and icon, manual pages
# written from the CLI's --help. Its dependencies are those of the libraries actually linked.
#   packaging/deb.sh            then: apt-get install ./build/astrolabe_*.deb
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${ASTROLABE_BUILD_DIR:-$root/build}
"$root/packaging/install-deps.sh" --deb
"$root/packaging/build.sh"
cd "$build"
rm -f astrolabe_*.deb
cpack -G DEB >cpack.log 2>&1 || { cat cpack.log; exit 1; }
deb=$(ls astrolabe_*.deb)
echo "deb: $build/$deb"
dpkg-deb --field "$deb" Package Version Architecture Depends
