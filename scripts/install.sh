#!/usr/bin/env bash
# Install bgpi on a Raspberry Pi as a systemd service, or remove it again.
#
#     sudo scripts/install.sh              # install or upgrade, enable and start
#     sudo scripts/install.sh --with-gnubg # also GNU Backgammon (Debian's gnubg): a seat, hints
#     sudo scripts/install.sh --uninstall  # remove; the journal (/var/lib/bgpi) stays
#     scripts/install.sh --dry-run         # print every action, change nothing
#     scripts/install.sh --root DIR        # treat DIR as / (a scratch root, an image)
#
# It creates the bgpi system user, a virtual environment in /opt/bgpi/venv with bgpi[pi] from
# this checkout, /etc/bgpi/config.toml (never overwriting one you edited; mode 0640, owner
# root, group bgpi: it may hold the broker's password and the match code), the unit and, when
# the config asks for the network (the companion page, a remote match's broker), the drop-in
# that opens exactly that, the udev rule, the SPI settings in the boot config, and enables and
# starts the service. Running it again changes only what is out of date. Every action that
# changes the system is printed (with --dry-run, instead of done).
#
# With --root DIR only files under DIR change: the users are added with --prefix, the unit is
# enabled with systemctl --root, and what needs the running system (apt-get, udevadm,
# systemctl start, loading SPI) is left out. tests/deploy/test_install.py runs it that way.
set -euo pipefail

usage() {
    cat <<'EOF'
usage: scripts/install.sh [--uninstall] [--dry-run] [--root DIR] [--python PYTHON]
                          [--with-gnubg]

  --uninstall      stop and remove bgpi; the journal in /var/lib/bgpi and an edited
                   /etc/bgpi/config.toml stay
  --dry-run        print every action instead of doing it
  --root DIR       install under DIR instead of / (nothing outside DIR changes)
  --python PYTHON  the interpreter that creates the virtual environment (default: python3)
  --with-gnubg     also install GNU Backgammon (Debian's gnubg), for a gnubg seat, hints and
                   the analysis of each game
EOF
}

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ARGS=("$@")
ROOT=/
DRY_RUN=0
UNINSTALL=0
PYTHON=python3
WITH_GNUBG=0

while (($#)); do
    case $1 in
    --uninstall) UNINSTALL=1 ;;
    --dry-run) DRY_RUN=1 ;;
    --root)
        (($# >= 2)) || { usage >&2; exit 2; }
        ROOT=$2
        shift
        ;;
    --root=*) ROOT=${1#--root=} ;;
    --python)
        (($# >= 2)) || { usage >&2; exit 2; }
        PYTHON=$2
        shift
        ;;
    --python=*) PYTHON=${1#--python=} ;;
    --with-gnubg) WITH_GNUBG=1 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
    shift
done

SERVICE=bgpi.service
SERVICE_USER=bgpi
DEVICE_GROUPS=(gpio spi dialout bluetooth)
OPT=/opt/bgpi
VENV=$OPT/venv
# The sha256 of the config as this script last installed it: a config that still has it was
# not edited, and may be replaced by a newer one.
STAMP=$OPT/config.toml.sha256
CONFIG=/etc/bgpi/config.toml
UNIT=/etc/systemd/system/$SERVICE
# What the config needs of the network, which the unit alone does not give (bgpi.service.unit).
DROPIN=/etc/systemd/system/$SERVICE.d/network.conf
RULES=/etc/udev/rules.d/99-bgpi.rules
LINK=/usr/local/bin/bgpi
STATE=/var/lib/bgpi
# spidev's buffer, large enough for one frame of LEDs (hardware/pins.md).
MODPROBE=/etc/modprobe.d/bgpi-spidev.conf
BOOT_BEGIN="# bgpi: begin (scripts/install.sh; hardware/pins.md says why)"
BOOT_END="# bgpi: end"
BOOT_BLOCK="$BOOT_BEGIN
[all]
dtparam=spi=on
dtoverlay=spi1-1cs
[pi3]
core_freq=250
[pi02]
core_freq=250
[pi4]
core_freq_min=500
[all]
$BOOT_END"

say() { printf '%s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

ROOT=${ROOT%/}
LIVE=0
[[ -z $ROOT ]] && LIVE=1
[[ $LIVE == 1 || -d $ROOT ]] || die "--root $ROOT: no such directory"

# The path of an installed file: under the root.
at() { printf '%s%s' "$ROOT" "$1"; }

# A command line as it would be typed.
quoted() {
    local line
    line=$(printf '%q ' "$@")
    printf '%s' "${line% }"
}

# Run a command that changes the system; with --dry-run only print it.
run() {
    if ((DRY_RUN)); then
        say "would run: $(quoted "$@")"
    else
        say "+ $(quoted "$@")"
        "$@"
    fi
}

has_entry() { # passwd|group NAME
    if ((LIVE)); then
        getent "$1" "$2" >/dev/null
    else
        grep -q "^$2:" "$(at "/etc/$1")" 2>/dev/null
    fi
}

# Options that make the shadow tools and systemctl work on the root instead of /.
prefix=()
systemctl_root=()
if ((!LIVE)); then
    prefix=(--prefix "$ROOT")
    systemctl_root=("--root=$ROOT")
fi

sha() { sha256sum "$1" | cut -d' ' -f1; }

# A group's number, as the root knows it (under --root, the host's names mean nothing).
group_id() { # NAME
    if ((LIVE)); then
        getent group "$1" | cut -d: -f3 || true # none yet: empty
    else
        awk -F: -v name="$1" '$1 == name { print $3 }' "$(at /etc/group)"
    fi
}

# How install and chown name root and GROUP: by name on the live system, by number under a
# root (and by name in a dry run that has not made the group yet).
owner_of() { # GROUP
    local gid
    gid=$(group_id "$1")
    if ((LIVE)) || [[ -z $gid ]]; then
        printf 'root:%s' "$1"
    else
        printf '0:%s' "$gid"
    fi
}

# Whether PATH (under /) has MODE, and, if GROUP is given, owner root and GROUP.
has_mode() { # PATH MODE [GROUP]
    local path
    path=$(at "$1")
    [[ $(stat -c %a "$path") == "${2#0}" ]] || return 1
    [[ -z ${3:-} ]] || [[ $(stat -c %u:%g "$path") == "0:$(group_id "$3")" ]]
}

# Install SRC as DST (a path under /) with MODE (and owner root, group GROUP) unless it is
# already there; says whether it changed by its exit status (0: changed).
put() { # SRC DST MODE [GROUP]
    local dst owner=()
    dst=$(at "$2")
    if [[ -f $dst ]] && cmp -s "$1" "$dst" && has_mode "$2" "$3" "${4:-}"; then
        say "ok: $2"
        return 1
    fi
    if [[ -n ${4:-} ]]; then
        local both
        both=$(owner_of "$4")
        owner=(-o "${both%%:*}" -g "${both#*:}")
    fi
    run install -D -m "$3" "${owner[@]}" "$1" "$dst"
}

# A config file, which may hold secrets: readable by root and the service's group only.
secure() { # PATH under /
    if has_mode "$1" 0640 "$SERVICE_USER"; then
        return 0
    fi
    run chown "$(owner_of "$SERVICE_USER")" "$(at "$1")"
    run chmod 0640 "$(at "$1")"
}

# The same for text: put through a temporary file outside the root.
put_text() { # TEXT DST MODE
    local tmp status=0
    tmp=$(mktemp)
    printf '%s\n' "$1" >"$tmp"
    put "$tmp" "$2" "$3" || status=$?
    rm -f "$tmp"
    return "$status"
}

remove() { # PATH under /
    local path
    path=$(at "$1")
    if [[ -e $path || -L $path ]]; then
        run rm -rf "$path"
    fi
}

# -- the boot config ---------------------------------------------------------------------------

boot_config() {
    local candidate
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [[ -f $(at "$candidate") ]]; then
            printf '%s' "$candidate"
            return 0
        fi
    done
    return 1
}

# FILE without the bgpi block.
without_block() {
    awk -v begin="$BOOT_BEGIN" -v end="$BOOT_END" '
        $0 == begin { inside = 1; next }
        inside && $0 == end { inside = 0; next }
        !inside { print }
    ' "$1"
}

current_block() {
    awk -v begin="$BOOT_BEGIN" -v end="$BOOT_END" '
        $0 == begin { inside = 1 }
        inside { print }
        inside && $0 == end { exit }
    ' "$1"
}

# Rewrite FILE in place (keeping its owner and mode) with the bgpi block at its end.
set_boot_block() {
    local tmp
    tmp=$(mktemp)
    { without_block "$1"; printf '%s\n' "$BOOT_BLOCK"; } >"$tmp"
    cat "$tmp" >"$1"
    rm -f "$tmp"
}

remove_boot_block() {
    local tmp
    tmp=$(mktemp)
    without_block "$1" >"$tmp"
    cat "$tmp" >"$1"
    rm -f "$tmp"
}

# -- install -------------------------------------------------------------------------------------

install_packages() {
    if ((!LIVE)); then
        ((WITH_GNUBG)) && say "note: --with-gnubg: install gnubg in $ROOT yourself"
        return 0
    fi
    if ! command -v dpkg-query >/dev/null; then
        say "note: no dpkg: install python3-venv, python3-dev and gcc yourself"
        return 0
    fi
    # The venv sees the system's packages: Raspberry Pi OS's lgpio and spidev come prebuilt,
    # so a Pi Zero 2 W need not compile them. Without them pip compiles, with gcc and the
    # headers of python3-dev; those and python3-venv are needed, the prebuilt ones welcome.
    local needed=(python3-venv python3-dev gcc)
    ((WITH_GNUBG)) && needed+=(gnubg)
    local wanted=("${needed[@]}" python3-lgpio python3-spidev) absent=() pkg
    for pkg in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
            absent+=("$pkg")
        fi
    done
    if ((${#absent[@]} == 0)); then
        say "ok: packages ${wanted[*]}"
        return 0
    fi
    # A fresh image's package lists are old. Raspberry Pi OS has every package here; another
    # distribution may lack python3-lgpio, and pip then builds it. One source that cannot be
    # read (an extra repository offline, a key expired) fails the update but spoils nothing
    # else: the lists of the others are fresh, and the packages are checked below.
    local update_failed=0
    run apt-get update || update_failed=1
    local available=() lacking=()
    for pkg in "${absent[@]}"; do
        if apt-cache show "$pkg" >/dev/null 2>&1; then
            available+=("$pkg")
        elif [[ " ${needed[*]} " == *" $pkg "* ]]; then
            lacking+=("$pkg")
        fi
    done
    if ((${#lacking[@]} && update_failed)); then
        die "apt-get update failed (above) and ${lacking[*]} cannot be installed without it:" \
            "mend that source in /etc/apt and run this again"
    elif ((${#lacking[@]})); then
        die "no package ${lacking[*]} in this system's sources (/etc/apt)"
    elif ((update_failed)); then
        say "note: apt-get update failed (above), but the packages needed can be installed:" \
            "going on"
    fi
    if ((${#available[@]})); then
        run apt-get install -y --no-install-recommends "${available[@]}" ||
            die "apt-get install ${available[*]} failed (above)"
    fi
    if ((!DRY_RUN)) && [[ " ${available[*]} " == *" gnubg "* ]]; then
        say "GNU Backgammon is installed: a seat plays it with white = \"gnubg:expert\" (or" \
            "black) under [seats] in $CONFIG (README.md, \"Playing against the computer\")"
    fi
}

install_user() {
    local group
    for group in "${DEVICE_GROUPS[@]}"; do
        if has_entry group "$group"; then
            say "ok: group $group"
        else
            run groupadd --system "${prefix[@]}" "$group"
        fi
    done
    if has_entry passwd "$SERVICE_USER"; then
        say "ok: user $SERVICE_USER"
    else
        # No home, no shell: it only runs the service. The groups come from the unit.
        run useradd --system --user-group --no-create-home --home-dir /nonexistent \
            --shell /usr/sbin/nologin --comment "bgpi backgammon table" "${prefix[@]}" \
            "$SERVICE_USER"
    fi
}

install_venv() {
    if [[ -x $(at "$VENV/bin/python") ]]; then
        say "ok: $VENV"
    else
        run "$PYTHON" -m venv --system-site-packages "$(at "$VENV")"
    fi
    # Always: this checkout may hold a newer bgpi than the one installed. pip builds from a
    # copy, so that, run as root, it leaves no root-owned build/ in the checkout.
    local package=$REPO
    if ((!DRY_RUN)); then
        STAGE=$(mktemp -d)
        trap 'rm -rf "$STAGE"' EXIT
        cp -R "$REPO/pyproject.toml" "$REPO/README.md" "$REPO/bgpi" "$STAGE/"
        package=$STAGE
    fi
    run "$(at "$VENV/bin/python")" -m pip install --quiet --upgrade "${package}[pi]"
    local link
    link=$(at "$LINK")
    if [[ -L $link && $(readlink "$link") == "$VENV/bin/bgpi" ]]; then
        say "ok: $LINK"
    else
        run mkdir -p "$(dirname "$link")"
        run ln -sfn "$VENV/bin/bgpi" "$link"
    fi
}

# The config: installed once; replaced only while it is still exactly what was installed.
install_config() {
    local template=$REPO/systemd/config.toml config stamp new_sha
    config=$(at "$CONFIG")
    stamp=$(at "$STAMP")
    new_sha=$(sha "$template")
    if [[ -f $config ]]; then
        local have_sha installed_sha=""
        have_sha=$(sha "$config")
        [[ -f $stamp ]] && installed_sha=$(<"$stamp")
        if [[ $have_sha == "$new_sha" ]]; then
            say "ok: $CONFIG"
            secure "$CONFIG"
        elif [[ $have_sha != "$installed_sha" ]]; then
            say "kept: $CONFIG (edited)"
            secure "$CONFIG"  # an older install left it readable by all
            if [[ $installed_sha != "$new_sha" ]]; then
                say "note: this bgpi's default config is $CONFIG.new: compare it with yours"
                put "$template" "$CONFIG.new" 0640 "$SERVICE_USER" || true
            fi
            return 0
        else
            put "$template" "$CONFIG" 0640 "$SERVICE_USER" || true
        fi
    else
        put "$template" "$CONFIG" 0640 "$SERVICE_USER" || true
    fi
    remove "$CONFIG.new"
    put_text "$new_sha" "$STAMP" 0644 || true
}

BOOT_CHANGED=0
UNIT_CHANGED=0
RULES_CHANGED=0

install_boot() {
    local file
    if ! file=$(boot_config); then
        say "note: no /boot/firmware/config.txt: not a Raspberry Pi? Turn SPI on yourself" \
            "(hardware/pins.md)"
        return 0
    fi
    if [[ $(current_block "$(at "$file")") == "$BOOT_BLOCK" ]]; then
        say "ok: $file"
    else
        run set_boot_block "$(at "$file")"
        BOOT_CHANGED=1
    fi
    if put "$REPO/systemd/bgpi-spidev.conf" "$MODPROBE" 0644; then
        BOOT_CHANGED=1
    fi
}

# The drop-in that opens the network the config asks for, from bgpi itself (`bgpi config
# dropin`); none, and an old one is removed, when it asks for none.
install_dropin() {
    local bgpi text
    bgpi=$(at "$VENV/bin/bgpi")
    if [[ ! -x $bgpi ]]; then # a dry run, before there is a bgpi to ask
        say "would write $DROPIN if $CONFIG asks for the network"
        return 1
    fi
    if ! text=$("$bgpi" config dropin "$(at "$CONFIG")"); then
        say "note: $CONFIG does not pass bgpi config check: $DROPIN left as it is"
        return 1
    fi
    if [[ -n $text ]]; then
        put_text "$text" "$DROPIN" 0644
    elif [[ -e $(at "$DROPIN") ]]; then
        remove_dropin
    else
        return 1
    fi
}

remove_dropin() {
    local dir
    dir=$(at "$(dirname "$DROPIN")")
    remove "$DROPIN"
    if [[ -d $dir ]]; then
        run rmdir --ignore-fail-on-non-empty "$dir"
    fi
}

install_service() {
    put "$REPO/systemd/$SERVICE" "$UNIT" 0644 && UNIT_CHANGED=1
    install_dropin && UNIT_CHANGED=1
    put "$REPO/systemd/99-bgpi.rules" "$RULES" 0644 && RULES_CHANGED=1
    if ((LIVE)); then
        ((UNIT_CHANGED)) && run systemctl daemon-reload
        if ((RULES_CHANGED)); then
            run udevadm control --reload-rules
            run udevadm trigger --subsystem-match=tty --subsystem-match=spidev \
                --subsystem-match=gpio
        fi
    fi
    # systemctl cannot look at a unit a dry run did not install.
    if ((DRY_RUN)) && ((UNIT_CHANGED)); then
        run systemctl "${systemctl_root[@]}" enable "$SERVICE"
    elif systemctl "${systemctl_root[@]}" --quiet is-enabled "$SERVICE" 2>/dev/null; then
        say "ok: $SERVICE enabled"
    else
        run systemctl "${systemctl_root[@]}" enable "$SERVICE"
    fi
}

start_service() {
    ((LIVE)) || return 0
    if ((BOOT_CHANGED)); then
        if command -v dtparam >/dev/null; then
            run dtparam spi=on
        fi
        if command -v dtoverlay >/dev/null; then
            run dtoverlay spi1-1cs
        fi
        say "The SPI settings take effect at the next boot: sudo reboot (bgpi then starts by itself)."
        return 0
    fi
    run systemctl restart "$SERVICE"
    say "bgpi is running: systemctl status bgpi, journalctl -u bgpi -f"
}

do_install() {
    local file
    for file in systemd/$SERVICE systemd/99-bgpi.rules systemd/config.toml \
        systemd/bgpi-spidev.conf pyproject.toml; do
        [[ -f $REPO/$file ]] || die "$REPO/$file is missing: run this script from a bgpi checkout"
    done
    install_packages
    install_user
    install_venv
    install_config
    install_boot
    install_service
    start_service
}

# -- uninstall -----------------------------------------------------------------------------------

uninstall_config() {
    local config stamp
    config=$(at "$CONFIG")
    stamp=$(at "$STAMP")
    [[ -f $config ]] || return 0
    if [[ -f $stamp && $(sha "$config") == "$(<"$stamp")" ]]; then
        remove "$CONFIG"
        remove "$CONFIG.new"
        if [[ -d $(at /etc/bgpi) ]]; then
            run rmdir --ignore-fail-on-non-empty "$(at /etc/bgpi)"
        fi
    else
        say "kept: $CONFIG (edited)"
    fi
}

do_uninstall() {
    if [[ -f $(at "$UNIT") ]]; then
        if ((LIVE)); then
            run systemctl disable --now "$SERVICE"
        else
            run systemctl "${systemctl_root[@]}" disable "$SERVICE"
        fi
    fi
    remove "$UNIT"
    if [[ -e $(at "$DROPIN") ]]; then
        remove_dropin
    fi
    remove "$RULES"
    remove "$MODPROBE"
    remove "$LINK"
    uninstall_config
    remove "$OPT"
    local file
    if file=$(boot_config) && [[ -n $(current_block "$(at "$file")") ]]; then
        run remove_boot_block "$(at "$file")"
    fi
    if has_entry passwd "$SERVICE_USER"; then
        run userdel "${prefix[@]}" "$SERVICE_USER"
    fi
    # userdel takes the user's own group with it, unless login.defs says otherwise.
    if ((!DRY_RUN)) && has_entry group "$SERVICE_USER"; then
        run groupdel "${prefix[@]}" "$SERVICE_USER"
    fi
    if ((LIVE)); then
        run systemctl daemon-reload
        run udevadm control --reload-rules
    fi
    if [[ -d $(at "$STATE") ]]; then
        say "kept: $STATE (the journal; remove it yourself if you want it gone)"
    fi
}

# Sourced, it only defines its functions (tests/deploy/test_install.py runs install_packages).
[[ ${BASH_SOURCE[0]} == "$0" ]] || return 0
if ((LIVE && !DRY_RUN)) && [[ $(id -u) != 0 ]]; then
    die "changing the system needs root: sudo $0 ${ARGS[*]}"
fi
if ((UNINSTALL)); then
    do_uninstall
else
    do_install
fi
