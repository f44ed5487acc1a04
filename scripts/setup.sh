#!/usr/bin/env bash
# Installs the Debian packages Reel needs (listed in scripts/packages.txt).
#
# Idempotent: when everything is installed it prints nothing and changes nothing. It runs
# `apt-get update` only when something is missing, installs without recommends, and never
# leaves a system service running: tests start their own nginx on loopback ports, so the
# system nginx that the package would start on port 80 is kept stopped and disabled.
#
# Runs as root; as another user it uses sudo when sudo exists.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
list="$here/packages.txt"

say() { printf 'setup: %s\n' "$*"; }
fail() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

[ -r "$list" ] || fail "cannot read $list"
command -v dpkg-query >/dev/null 2>&1 || fail "dpkg-query not found: this script needs Debian (or a derivative) with apt"

# Package names: first word of each line, comments and blank lines skipped.
mapfile -t wanted < <(sed -e 's/#.*//' "$list" | awk 'NF { print $1 }')

installed() {
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null)" = "installed" ]
}

missing=()
for pkg in "${wanted[@]}"; do
    installed "$pkg" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

# Something is missing: from here on we need root.
if [ "$(id -u)" -eq 0 ]; then
    as_root=()
elif command -v sudo >/dev/null 2>&1; then
    as_root=(sudo)
else
    fail "missing packages: ${missing[*]}; run this script as root (this user is not root and sudo is not installed)"
fi

say "installing: ${missing[*]}"

# Keep package scripts from starting services (nginx would bind port 80). invoke-rc.d and
# deb-systemd-invoke both ask policy-rc.d; exit 101 means "action forbidden". If the
# machine already has a policy (as Docker images do), it is left as it is.
policy=/usr/sbin/policy-rc.d
made_policy=0
cleanup() {
    if [ "$made_policy" -eq 1 ]; then
        "${as_root[@]}" rm -f "$policy" || true
    fi
}
trap cleanup EXIT
if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\n# Written by Reel scripts/setup.sh for the duration of an install.\nexit 101\n' |
        "${as_root[@]}" tee "$policy" >/dev/null
    "${as_root[@]}" chmod 755 "$policy"
    made_policy=1
fi

apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -o Dpkg::Use-Pty=0
     -o DPkg::Lock::Timeout=600)

# Missing packages mean the lists may be stale or absent: refresh them once.
if ! "${apt[@]}" update; then
    fail "'apt-get update' failed (see above): check the network and /etc/apt/sources.list*"
fi
if ! "${apt[@]}" install -y --no-install-recommends "${missing[@]}"; then
    fail "'apt-get install' failed for: ${missing[*]} (see apt's message above)"
fi

# The system nginx must not run: tests and the demo start their own instances.
if installed nginx; then
    if [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then
        "${as_root[@]}" systemctl disable --now nginx >/dev/null 2>&1 || true
    elif command -v update-rc.d >/dev/null 2>&1; then
        "${as_root[@]}" update-rc.d nginx disable >/dev/null 2>&1 || true
    fi
    # Started anyway (a policy that allowed it): stop the instance of the default config.
    if [ -s /run/nginx.pid ] && kill -0 "$(cat /run/nginx.pid)" 2>/dev/null; then
        say "stopping the system nginx started by its package"
        "${as_root[@]}" nginx -s quit >/dev/null 2>&1 || true
    fi
fi

for pkg in "${missing[@]}"; do
    installed "$pkg" || fail "$pkg is still not installed after apt-get install"
done
say "done"
