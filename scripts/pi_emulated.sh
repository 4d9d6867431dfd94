#!/usr/bin/env bash
# Install bgpi on a Raspberry Pi's own architecture, without a Pi: a minimal Debian bookworm
# for ARCH (arm64: 64-bit Raspberry Pi OS; armhf: 32-bit) run under qemu user-mode emulation.
#
#     sudo scripts/pi_emulated.sh arm64
#     sudo scripts/pi_emulated.sh armhf
#
# In a chroot of that userland it runs scripts/install.sh as on a Pi (only systemctl and
# udevadm are stand-ins: there is no systemd in a chroot), then does what README.md says for a
# plain venv (apt-get install gcc python3-dev python3-venv, pip install '.[pi]'), and with it
# runs `bgpi demo --seed 3 --length 1`, `bgpi run --self-play --matches 1` (the simulated
# backends) and pytest tests/hal, which runs the real GPIO, SPI and LED libraries of the Pi's
# architecture on mock pins. Any failure ends it with exit 1 and one line saying which step.
#
# It needs root (debootstrap, chroot, mount) and installs from Debian what it lacks
# (qemu-user-static, binfmt-support, debootstrap). The chroot reaches Debian's mirror and PyPI
# only. The userland is kept in $BGPI_PI_CACHE (default /var/cache/bgpi-pi-emulated), with the
# downloaded packages and pip's cache, so a second run skips debootstrap and every download;
# each run starts from a fresh copy of the userland. .ci/run runs it for arm64.
set -euo pipefail

SUITE=bookworm
MIRROR=http://deb.debian.org/debian
CACHE=${BGPI_PI_CACHE:-/var/cache/bgpi-pi-emulated}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
HOST_TOOLS=(qemu-user-static binfmt-support debootstrap)

usage() { echo "usage: scripts/pi_emulated.sh arm64|armhf" >&2; }
fail() { printf 'pi_emulated.sh: %s\n' "$*" >&2; exit 1; }
say() { printf '== %s\n' "$*"; }

(($# == 1)) || { usage; exit 2; }
ARCH=$1
case $ARCH in
arm64) QEMU=qemu-aarch64 ;;
armhf) QEMU=qemu-arm ;;
-h | --help) usage; exit 0 ;;
*) usage; exit 2 ;;
esac
[[ $(id -u) == 0 ]] || fail "debootstrap, chroot and mount need root: sudo $0 $ARCH"

BASE=$CACHE/$ARCH/base   # the pristine userland, never changed once made
RUN=$CACHE/$ARCH/run     # this run's copy
DEBS=$CACHE/$ARCH/debs   # apt's downloads, shared by every run
PIP_CACHE=$CACHE/$ARCH/pip

# -- the host ------------------------------------------------------------------------------------

host_tools() {
    local missing=() pkg
    for pkg in "${HOST_TOOLS[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' ||
            missing+=("$pkg")
    done
    ((${#missing[@]})) || return 0
    command -v apt-get >/dev/null || fail "no apt-get: install ${missing[*]} yourself"
    say "installing ${missing[*]} on the host"
    # A failing extra source need not stop us: the install below says if a package is missing.
    DEBIAN_FRONTEND=noninteractive apt-get update -qq ||
        say "apt-get update failed for a source; trying the package lists there are"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null || fail "cannot install ${missing[*]} on the host"
}

# Let the kernel run ARCH's programs through qemu. Debian's qemu-user-static registers them
# with the F flag: the kernel opens the interpreter once, so the chroot needs no copy of it.
binfmt() {
    local misc=/proc/sys/fs/binfmt_misc
    if [[ ! -e $misc/register ]]; then
        mount -t binfmt_misc binfmt_misc "$misc" ||
            fail "cannot mount $misc: a container needs the privilege to (docker run --privileged)"
    fi
    if ! grep -qx enabled "$misc/$QEMU" 2>/dev/null; then
        update-binfmts --enable "$QEMU" || fail "update-binfmts --enable $QEMU failed"
    fi
    grep -qx enabled "$misc/$QEMU" 2>/dev/null || fail "$misc/$QEMU is not enabled"
    grep -q '^flags: .*F' "$misc/$QEMU" ||
        fail "$misc/$QEMU lacks the F flag: the chroot would need qemu inside it"
}

# -- the userland --------------------------------------------------------------------------------

mounted_under() { grep -q " $1/" /proc/self/mounts; }

# shellcheck disable=SC2317 # run by the EXIT trap
unmount_all() {
    local point
    # Deepest first.
    while read -r point; do
        umount "$point" || umount -l "$point"
    done < <(awk -v dir="$RUN/" 'index($2, dir) == 1 { print $2 }' /proc/self/mounts | sort -r)
}

base() {
    if [[ -f $BASE.ok ]]; then
        say "the $ARCH userland from $BASE"
        return 0
    fi
    say "debootstrap $SUITE for $ARCH into $BASE"
    mounted_under "$BASE" && fail "something is still mounted under $BASE"
    rm -rf "$BASE"
    mkdir -p "$BASE" "$DEBS"
    # Only python3: the installer must bring what else it needs, as on a fresh Raspberry Pi OS.
    debootstrap --arch="$ARCH" --variant=minbase --include=python3 \
        --cache-dir="$DEBS" "$SUITE" "$BASE" "$MIRROR" >"$CACHE/$ARCH/debootstrap.log" 2>&1 ||
        fail "debootstrap failed: see $CACHE/$ARCH/debootstrap.log"
    rm -f "$BASE"/var/cache/apt/archives/*.deb
    touch "$BASE.ok"
}

fresh_copy() {
    # Mounts left under it are a killed run's (the lock says no run is going on now).
    if mounted_under "$RUN"; then
        say "unmounting what a stopped run left under $RUN"
        unmount_all
        mounted_under "$RUN" && fail "something is still mounted under $RUN: umount it first"
    fi
    rm -rf "$RUN"
    cp -a "$BASE" "$RUN"
    cp /etc/resolv.conf "$RUN/etc/resolv.conf"
    # The host's trust store: where HTTPS goes through a proxy with its own CA, pip needs it.
    if [[ -f /etc/ssl/certs/ca-certificates.crt ]]; then
        mkdir -p "$RUN/etc/ssl/certs"
        cp /etc/ssl/certs/ca-certificates.crt "$RUN/etc/ssl/certs/host-ca.crt"
    fi
    # The checkout, as git sees it (no .venv, no caches).
    mkdir -p "$RUN/src"
    git -C "$REPO" ls-files -z --cached --others --exclude-standard |
        tar -C "$REPO" --null --files-from=- --ignore-failed-read -cf - 2>/dev/null |
        tar -xf - -C "$RUN/src"
    [[ -f $RUN/src/scripts/install.sh ]] || fail "could not copy the checkout $REPO"
    # No systemd in a chroot: stand-ins that log what the installer asks of them.
    local name
    for name in systemctl udevadm; do
        cat >"$RUN/usr/local/sbin/$name" <<EOF
#!/bin/sh
echo "$name \$*" >>/var/log/stand-ins.log
[ "\$1 \$2" = "--quiet is-enabled" ] && exit 1
exit 0
EOF
        chmod 755 "$RUN/usr/local/sbin/$name"
    done
    mkdir -p "$DEBS" "$PIP_CACHE"
    mount -t proc proc "$RUN/proc"
    # Terminals of its own (the scanner's emulator talks over a pty) and shared memory.
    mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$RUN/dev/pts"
    rm -f "$RUN/dev/ptmx"
    ln -s pts/ptmx "$RUN/dev/ptmx"
    mount -t tmpfs -o mode=1777 shm "$RUN/dev/shm"
    mount --bind "$DEBS" "$RUN/var/cache/apt/archives"
    mkdir -p "$RUN/root/.cache/pip"
    mount --bind "$PIP_CACHE" "$RUN/root/.cache/pip"
}

# -- inside --------------------------------------------------------------------------------------

# What runs in the chroot, step by step, each with its output in /var/log/pi_emulated/; the
# first failing step ends it with its name and the end of its output.
inside_script() {
    cat <<'EOF'
set -uo pipefail
mkdir -p /var/log/pi_emulated
# The time of each step, and the processor time it took: on a busy machine the first says
# little, the second what it costs.
TIMEFORMAT="%0R s (processor: %0U s user, %0S s system)"
step() {
    local name=$1 log took status=0
    shift
    log=/var/log/pi_emulated/${name//[^a-z0-9]/_}.log
    took=$({ time "$@" >"$log" 2>&1; } 2>&1) || status=$?
    if ((status)); then
        tail -n 40 "$log" >&2
        echo "pi_emulated.sh: $ARCH: $name failed (exit $status)" >&2
        exit 1
    fi
    echo "== $name: ok, $took"
}
cd /src
export DEBIAN_FRONTEND=noninteractive
printf '[web]\nenabled = false\n' >/tmp/no-page.toml
step "scripts/install.sh" bash scripts/install.sh
step "the installed bgpi demo" /usr/local/bin/bgpi demo --seed 3 --length 1 --state-dir /tmp/installed
step "apt-get install gcc python3-dev python3-venv" \
    apt-get install -y --no-install-recommends gcc python3-dev python3-venv
step "python3 -m venv" python3 -m venv /opt/plain
step "pip install .[pi]" /opt/plain/bin/pip install ".[pi]" \
    "pytest>=8" "pytest-benchmark>=4" "hypothesis>=6.100"
export PATH=/opt/plain/bin:$PATH
step "bgpi demo" bgpi demo --seed 3 --length 1 --state-dir /tmp/demo
step "bgpi run --self-play" bgpi run --config /tmp/no-page.toml --self-play --matches 1 \
    --seed 3 --state-dir /tmp/run
step "pytest tests/hal" pytest -p no:cacheprovider tests/hal
echo "   $(tail -n 1 /var/log/pi_emulated/pytest_tests_hal.log)"
EOF
}

inside() {
    local pip_env=()
    if [[ -f $RUN/etc/ssl/certs/host-ca.crt ]]; then
        pip_env=(PIP_CERT=/etc/ssl/certs/host-ca.crt SSL_CERT_FILE=/etc/ssl/certs/host-ca.crt)
    fi
    inside_script >"$RUN/root/pi_emulated.sh"
    # PIP_NO_COMPILE: byte-compiling every module pip installs takes minutes under emulation;
    # Python compiles what it imports anyway.
    chroot "$RUN" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb ARCH="$ARCH" \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 PIP_ROOT_USER_ACTION=ignore \
        PIP_NO_COMPILE=1 \
        "${pip_env[@]}" /bin/bash /root/pi_emulated.sh
}

main() {
    local started=$SECONDS
    mkdir -p "$CACHE/$ARCH"
    exec 9>"$CACHE/$ARCH/lock"
    flock -n 9 || fail "another run for $ARCH holds $CACHE/$ARCH/lock"
    host_tools
    binfmt
    base
    trap unmount_all EXIT
    fresh_copy
    local machine
    machine=$(chroot "$RUN" /usr/bin/uname -m) || fail "cannot run $ARCH programs through $QEMU"
    say "$ARCH userland running as $machine; the checkout in /src"
    inside || fail "$ARCH: the userland stays in $RUN for a look (logs: $RUN/var/log/pi_emulated)"
    say "bgpi installs and runs on $ARCH ($machine): $((SECONDS - started)) s"
    # Not back to the script: bash reads it as it runs, and it may have changed meanwhile.
    exit 0
}

main
