#!/usr/bin/env bash
# The first README command: install what is missing, build what it runs (the GUI and the CLI,
# not the tests), and open the quick-start project. With a display the GUI starts on it; without
# one the project runs headless and its report is printed. packaging/test.sh later builds the
# rest in the same folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/packaging/install-deps.sh"
"$root/packaging/build.sh" --app
project="$root/projects/quickstart/project.yaml"
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    exec "$root/build/app/gui/astrolabe" "$project" "$@"
fi
echo "No display found: running the quick-start project headless."
exec "$root/build/app/cli/astrolabe-cli" run "$project" "$@"
