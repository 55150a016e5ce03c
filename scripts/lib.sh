# Shared by the scripts: finds the package root and installs what a fresh Debian machine lacks.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

say() { printf '%s\n' "$*" >&2; }

# install_debian_packages PKG… — installs missing Debian packages, as root or through sudo.
install_debian_packages() {
    local missing=()
    for pkg in "$@"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if ! command -v apt-get >/dev/null 2>&1; then
        say "error: missing ${missing[*]}, and there is no apt-get here: install them with your package manager."
        exit 1
    fi
    local run=()
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
            run=(sudo)
        else
            say "error: ${missing[*]} is not installed and this script is not running as root."
            say "       Install it once with:  sudo apt-get install -y ${missing[*]}"
            exit 1
        fi
    fi
    say "Installing ${missing[*]} with apt-get…"
    # Another install may hold dpkg's lock (a parallel script, unattended upgrades): wait for it.
    local wait=(-o DPkg::Lock::Timeout=600)
    "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" update -qq >/dev/null
    "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${wait[@]}" install -y -qq "${missing[@]}" >/dev/null
}

# python_with PKG… — a virtual environment (made once, reused) that has the PyPI packages given;
# sets PYTHON to its interpreter. Returns 1, after saying why, when they cannot be installed
# (no network, no venv module), so that optional tests can skip with that message.
python_with() {
    local venv="${BLUETAPE_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/bluetape/venv}"
    if [ ! -x "$venv/bin/python" ]; then
        mkdir -p "$(dirname "$venv")"
        python3 -m venv "$venv" >/dev/null 2>&1 || { say "cannot make a Python virtual environment at $venv"; return 1; }
    fi
    local missing=()
    for pkg in "$@"; do
        "$venv/bin/python" -m pip show -q "${pkg%%[=<>]*}" >/dev/null 2>&1 || missing+=("$pkg")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "Installing ${missing[*]} from PyPI into $venv…"
        "$venv/bin/python" -m pip install -q "${missing[@]}" >/dev/null 2>&1 \
            || { say "cannot install ${missing[*]} from PyPI"; return 1; }
    fi
    PYTHON="$venv/bin/python"
}

# build_release — builds the bluetape command in release mode, with the Swift runtime linked in
# (a program that loads no Swift libraries starts in half the time), and sets BIN to it.
build_release() {
    swift build -c release --static-swift-stdlib --product bluetape >/dev/null
    BIN="$(swift build -c release --static-swift-stdlib --show-bin-path)/bluetape"
}

require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        say "error: swift is not on PATH. Install the Swift toolchain (swift.org/install) first."
        exit 1
    fi
}
