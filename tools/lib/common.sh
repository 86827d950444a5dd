# Shared by tools/test and tools/demo: find Swift, install the Debian packages the package needs.
# Sourced, not run.

# C libraries and fonts the package builds and runs against (Debian names).
HYZER_DEBIAN_PACKAGES=(
    libsqlite3-dev                                        # GRDB links the system SQLite
    libsdl2-dev libsdl2-ttf-dev                           # hyzer-watch draws with SDL2
    libsdl2-image-2.0-0                                   # and saves screenshots with SDL_image (opened when first used)
    fonts-dejavu-core libfontconfig-dev                   # DejaVu Sans / Sans Mono, found through fontconfig
    fonts-dejavu-extra                                    # DejaVu Sans Condensed Bold: the leaderboard's names
    fonts-noto-cjk                                        # Chinese, Japanese and Korean names on the watch face
    python3 python3-jsonschema                            # docs/schema/validate.py checks real output against the schemas
)

# What only the tests need: a virtual display and a mouse for the real window (WatchWindowTests),
# and a browser with its driver for the phone's face (HubWebTests: Debian's Chromium, never a download).
HYZER_TEST_PACKAGES=(xvfb xdotool chromium chromium-driver python3-selenium)

# A step's heading ("== ...") says how long the run has taken so far, so a slow step shows in
# CI's log (a fresh machine's tools/test should stay well under 15 minutes).
HYZER_RUN_STARTED="${HYZER_RUN_STARTED:-$(date +%s)}"
export HYZER_RUN_STARTED
say() {
    if [[ "$*" == "=="* ]]; then
        local elapsed=$(($(date +%s) - HYZER_RUN_STARTED))
        printf '%s  [%dm%02ds]\n' "$*" $((elapsed / 60)) $((elapsed % 60)) >&2
    else
        printf '%s\n' "$*" >&2
    fi
}
die() { say "error: $*"; exit 1; }

hyzer_root() { cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd; }

# Swift is not a Debian package; it comes from swift.org's toolchain. Find it or say how to get it.
ensure_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        for dir in /opt/swift/usr/bin /usr/share/swift/usr/bin; do
            [ -x "$dir/swift" ] && export PATH="$dir:$PATH" && break
        done
    fi
    command -v swift >/dev/null 2>&1 || die "swift is not on PATH. Install a Swift 6 toolchain (https://www.swift.org/install/linux/) and put its usr/bin on PATH."
}

# Installs every missing package with apt-get: directly as root, through sudo otherwise.
ensure_debian_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0

    local runner=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            runner=(sudo -n)
        else
            die "missing Debian packages: ${missing[*]}. Run as root or with passwordless sudo, or install them: apt-get install ${missing[*]}"
        fi
    fi
    command -v apt-get >/dev/null 2>&1 || die "missing packages ${missing[*]} and no apt-get to install them (this script expects Debian or Ubuntu)."
    say "Installing ${missing[*]} with apt-get…"
    # A new machine has no package lists yet, so update first.
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q </dev/null >&2 \
        || die "apt-get update failed; check the network and /etc/apt/sources.list."
    "${runner[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" </dev/null >&2 \
        || die "apt-get install ${missing[*]} failed."
}
