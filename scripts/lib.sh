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
    "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >/dev/null
    "${run[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

require_swift() {
    if ! command -v swift >/dev/null 2>&1; then
        say "error: swift is not on PATH. Install the Swift toolchain (swift.org/install) first."
        exit 1
    fi
}
