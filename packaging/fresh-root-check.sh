#!/usr/bin/env bash
# Proves the README on a machine that has nothing: in a fresh Debian 12 minbase root made with
# debootstrap, a clean clone of this checkout runs exactly the README's two commands with no
# display and no standard input; then the Debian package built there is installed with apt-get
# into a second fresh root and runs the installed quick-start project.
#
# Passes only if packaging/run.sh prints the quick-start report, packaging/test.sh ends with
# ctest's "100% tests passed", and the installed astrolabe-cli runs the quick start.
#
#   packaging/fresh-root-check.sh [--cold] [--keep]
#     --cold   no compiler cache inside the root: the first run of a new user, with precompiled
#              headers (docs/building.md); each command prints its build time
#     --keep   leave the roots under the cache folder for a look afterwards
#
# Needs root (debootstrap, chroot, mount). The bootstrapped root is cached as a tarball in
# $ASTROLABE_FRESH_CACHE (default /var/tmp/astrolabe-fresh) together with downloaded packages,
# so a second run skips the download. Unless --cold, the root's build uses this machine's own
# compiler cache (ASTROLABE_FRESH_CCACHE names another): the same Debian compiler packages give the
# same cache keys inside the root, paths are hashed relative to the clone, and every object the
# cache returns was still preprocessed or matched against the root's own headers, so a header
# or package missing from the root still fails the build; linking and every test run for real.
# The Debian mirror is the one this machine's apt uses, unless ASTROLABE_DEBIAN_MIRROR names
# another.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${ASTROLABE_FRESH_CACHE:-/var/tmp/astrolabe-fresh}
cold=0 keep=0
for arg in "$@"; do
    case "$arg" in
    --cold) cold=1 ;;
    --keep) keep=1 ;;
    -h | --help) sed -n '2,23p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fresh-root-check: unknown option '$arg' (expected --cold or --keep)" >&2; exit 2 ;;
    esac
done

start=$SECONDS
say() { printf 'fresh-root-check [%dm%02ds] %s\n' $(((SECONDS - start) / 60)) $(((SECONDS - start) % 60)) "$*"; }
fail() { say "FAILED: $*" >&2; exit 1; }

[[ $(id -u) -eq 0 ]] || fail "needs root for debootstrap, chroot and mount (run it as root)"
if ! command -v debootstrap >/dev/null 2>&1; then
    say "installing debootstrap"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap \
        >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq --no-install-recommends debootstrap >/dev/null; } \
        || fail "could not install debootstrap"
fi
git -C "$root" rev-parse --git-dir >/dev/null 2>&1 || fail "$root is not a git checkout (a clean clone is copied from it)"

mirror=${ASTROLABE_DEBIAN_MIRROR:-}
if [[ -z "$mirror" ]]; then
    mirror=$( (grep -hsE '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
        grep -hsE '^deb ' /etc/apt/sources.list | awk '{print $2}') | grep -v security | head -n 1 || true)
fi
[[ -n "$mirror" ]] || fail "no Debian mirror in this machine's apt sources; set ASTROLABE_DEBIAN_MIRROR"

host_ccache=$(ccache --get-config cache_dir 2>/dev/null || true)
ccache_dir=${ASTROLABE_FRESH_CCACHE:-${host_ccache:-$cache/ccache}}
mkdir -p "$cache/apt-archives/partial" "$ccache_dir"
base="$cache/bookworm-minbase.tar.gz"
if [[ ! -s "$base" ]]; then
    say "bootstrapping a Debian 12 minbase root from $mirror (cached as $base)"
    tmp=$(mktemp -d "$cache/bootstrap.XXXXXX")
    if ! debootstrap --variant=minbase bookworm "$tmp/root" "$mirror" >"$tmp/debootstrap.log" 2>&1; then
        tail -n 20 "$tmp/debootstrap.log" >&2
        rm -rf "$tmp"
        fail "debootstrap failed (its log's end is above)"
    fi
    tar -C "$tmp/root" -czf "$base.partial" . && mv "$base.partial" "$base"
    rm -rf "$tmp"
fi

work=$(mktemp -d "$cache/run.XXXXXX")
mounts=()
cleanup() {
    local status=$? i
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount -R "${mounts[i]}" 2>/dev/null || umount -lR "${mounts[i]}" 2>/dev/null || true
    done
    if ((keep)); then
        echo "fresh-root-check: roots kept in $work"
    elif grep -q " $work/" /proc/self/mounts; then # never delete through a mount left behind
        echo "fresh-root-check: something is still mounted under $work; not deleting it" >&2
    else
        rm -rf --one-file-system "$work"
    fi
    exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

mount_into() { # source target [--bind|--rbind]
    mkdir -p "$2"
    mount "${3:---bind}" "$1" "$2"
    mounts+=("$2")
    [[ "${3:-}" == "--rbind" ]] && mount --make-rslave "$2"
    return 0
}

new_root() { # name: sets new_dir to a fresh root with /proc, /dev and the package cache mounted
    local dir="$work/$1"
    mkdir -p "$dir"
    tar -C "$dir" -xzf "$base"
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
    mkdir -p "$dir/proc"
    mount -t proc proc "$dir/proc"
    mounts+=("$dir/proc")
    mount_into /dev "$dir/dev" --rbind
    mount_into "$cache/apt-archives" "$dir/var/cache/apt/archives"
    chroot "$dir" /bin/true 2>/dev/null || fail "this machine cannot chroot into $dir"
    new_dir=$dir
}

root_env=() # what the root's shell has beyond a new user's (see below)
in_root() { # dir command... : a login-less shell as a new user has it, no display, no input
    local dir=$1
    shift
    chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "${root_env[@]}" "$@" </dev/null
}

# 1. The README's two commands in a fresh root, on a clean clone.
say "fresh root 1: a clean clone of $(git -C "$root" rev-parse --short HEAD) and the README's commands"
new_root build-root
r1=$new_dir
git clone -q "$root" "$r1/home/astrolabe"
if ((!cold)); then
    mount_into "$ccache_dir" "$r1/root/.cache/ccache"
    # The cache's base folder, and CI's -Werror, so that the root's compile commands are the
    # ones this machine's CI build caches (a new user's build differs from it only in -Werror).
    root_env=(CCACHE_BASEDIR=/home/astrolabe CI=true)
    say "compiler cache: $ccache_dir"
fi

say "packaging/run.sh (no display)"
in_root "$r1" bash -c 'cd /home/astrolabe && packaging/run.sh' 2>&1 | tee "$work/run.log" || true
grep -q '^Quick start: ' "$work/run.log" && grep -q 'finished at' "$work/run.log" \
    || fail "packaging/run.sh did not print the quick-start report (log above)"
say "run.sh printed the quick-start report ($(grep -E '^build: ' "$work/run.log" | tail -n 1))"

say "packaging/test.sh"
in_root "$r1" bash -c 'cd /home/astrolabe && packaging/test.sh' >"$work/test.log" 2>&1 || true
grep -vE '^ *[0-9]+/[0-9]+ Test +#' "$work/test.log" | tail -n 40
grep -q '100% tests passed' "$work/test.log" || fail "packaging/test.sh did not end with '100% tests passed'"
say "test.sh: $(grep -E 'tests passed' "$work/test.log" | tail -n 1) ($(grep -E '^build: ' "$work/test.log" | tail -n 1))"

# 2. The Debian package, installed with apt into a second fresh root.
say "packaging/deb.sh"
in_root "$r1" bash -c 'cd /home/astrolabe && packaging/deb.sh' 2>&1 | tee "$work/deb.log" || true
deb=$(ls "$r1"/home/astrolabe/build/astrolabe_*_amd64.deb 2>/dev/null | head -n 1)
[[ -n "$deb" ]] || fail "packaging/deb.sh made no astrolabe_*_amd64.deb"
say "built $(basename "$deb") ($(du -h "$deb" | cut -f1))"

new_root install-root
r2=$new_dir
cp "$deb" "$r2/tmp/"
cp "$r1/home/astrolabe/tests/data/nccl-tests/a100-oci-1node-all_reduce.txt" "$r2/tmp/"
say "fresh root 2: apt-get install ./$(basename "$deb")"
in_root "$r2" bash -c "cd /tmp && export DEBIAN_FRONTEND=noninteractive && apt-get update -qq \
    && apt-get install -y -qq ./$(basename "$deb")" >"$work/install.log" 2>&1 \
    || { cat "$work/install.log"; fail "apt-get could not install the package"; }
in_root "$r2" bash -c 'cp -r /usr/share/astrolabe/projects/quickstart /root/quickstart \
    && astrolabe-cli run /root/quickstart/project.yaml \
    && astrolabe-cli run /root/quickstart/project.yaml --backend packet \
    && QT_QPA_PLATFORM=offscreen astrolabe --version \
    && astrolabe-cli calibrate nccl-tests /tmp/a100-oci-1node-all_reduce.txt --dry-run \
           --project /usr/share/astrolabe/projects/hgx-h100/project.yaml --plot /root/fit.png \
    && head -c 4 /root/fit.png | grep -q PNG && echo "PNG chart drawn" \
    && test -s /usr/share/man/man1/astrolabe-cli.1.gz \
    && test -s /usr/share/applications/astrolabe.desktop' 2>&1 | tee "$work/installed.log" || true
grep -q '^Quick start: ' "$work/installed.log" && grep -q 'finished at' "$work/installed.log" \
    || fail "the installed astrolabe-cli did not run the quick start (log above)"
grep -qi '^astrolabe ' "$work/installed.log" || fail "the installed GUI did not start (log above)"
grep -q '^Quick start: .*, ns3$' "$work/installed.log" \
    || fail "the installed package did not open its packet module (astrolabe-packet.so) for a packet run"
grep -q '^PNG chart drawn$' "$work/installed.log" \
    || fail "the installed astrolabe-cli did not draw a calibration chart as PNG (astrolabe-svg-png.so)"
say "the installed package runs the quick start and draws a PNG chart"
say "PASSED"
