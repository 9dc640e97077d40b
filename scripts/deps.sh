# Sourced by the scripts of scripts/: installs the system packages the
# build and the tests need when they are missing (Debian; root, or sudo).
#   ode_ensure_deps PKG...
ode_missing_pkgs() {
  local p missing=()
  for p in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$p")
    fi
  done
  echo "${missing[@]}"
}

ode_ensure_deps() {
  if ! command -v dpkg-query >/dev/null 2>&1; then
    echo "deps: not a Debian system; make sure these are installed: $*" >&2
    return 0
  fi
  local missing
  missing=$(ode_missing_pkgs "$@")
  if [ -z "$missing" ]; then
    return 0
  fi
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo="sudo"
    else
      echo "deps: missing packages ($missing) and not root: install them first" >&2
      return 1
    fi
  fi
  echo "deps: installing $missing"
  # One `apt-get update` when the package lists are empty or the install fails.
  if [ -z "$(ls -A /var/lib/apt/lists 2>/dev/null | grep -v -e lock -e partial)" ]; then
    $sudo apt-get update -qq || return 1
  fi
  # shellcheck disable=SC2086
  if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing; then
    $sudo apt-get update -qq || return 1
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing || return 1
  fi
}

# cargo may live in ~/.cargo/bin without being on PATH (non-login shells).
ode_find_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    for d in "${CARGO_HOME:-$HOME/.cargo}/bin" /usr/local/cargo/bin; do
      if [ -x "$d/cargo" ]; then
        export PATH="$d:$PATH"
        break
      fi
    done
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo not found: install the Rust toolchain (https://rustup.rs)" >&2
    return 1
  fi
}

# ode_fetch_source WORK_DIR: Debian's `ode` source package (the version of the
# installed libode8) fetched with `apt-get source` through a private apt state
# (the system's apt sources are left alone) and unpacked in WORK_DIR, never
# in the repository. Prints the source tree's path (WORK_DIR/ode-<version>).
ode_fetch_source() {
  local work=$1 tree
  tree=$(find "$work" -maxdepth 1 -type d -name 'ode-[0-9]*' 2>/dev/null | head -1)
  if [ -n "$tree" ] && [ -f "$tree/ode/demo/demo_ode.cpp" ] && [ -d "$tree/drawstuff/textures" ]; then
    echo "$tree"; return 0
  fi
  ode_ensure_deps debian-archive-keyring >&2 || return 1
  mkdir -p "$work/apt/lists/partial" "$work/apt/parts"
  local codename
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
  cat > "$work/apt/parts/ode-src.sources" <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  local apt_opts=(-q -o "Dir::Etc::SourceList=/dev/null" -o "Dir::Etc::SourceParts=$work/apt/parts"
                  -o "Dir::State::Lists=$work/apt/lists" -o "Dir::Cache=$work/apt/cache")
  if ! ls "$work"/ode_*.orig.tar.gz >/dev/null 2>&1; then
    apt-get "${apt_opts[@]}" update >/dev/null || return 1
    local version
    version=$(dpkg-query -W -f='${Version}' libode8 2>/dev/null || true)
    (cd "$work" && { apt-get "${apt_opts[@]}" source --download-only "ode=$version" >/dev/null 2>&1 ||
                     apt-get "${apt_opts[@]}" source --download-only ode >/dev/null; }) || return 1
  fi
  (cd "$work" && tar xzf ode_*.orig.tar.gz --wildcards '*/ode/demo/*' '*/drawstuff/textures/*' '*/include/ode/*') || return 1
  tree=$(find "$work" -maxdepth 1 -type d -name 'ode-[0-9]*' | head -1)
  [ -n "$tree" ] && echo "$tree"
}
