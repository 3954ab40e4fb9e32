#!/usr/bin/env bash
# Sets up everything Patience Book needs on a fresh Debian machine, idempotently.
#   scripts/setup.sh site   Python environment for building the site, and the Pyodide runtime the
#                           live board loads (npm package pyodide, pinned in package-lock.json)
#   scripts/setup.sh test   the same, plus test tools (itstool, gettext, chromium, pytest, Playwright,
#                           Freecell Solver, and AisleRiot's game rules under guile-3.0 for the reference tests)
#   scripts/setup.sh bench  the same as test, plus what benchmarks/ compare against (yelp-tools,
#                           translate-toolkit, psutil)
set -euo pipefail
mode="${1:-site}"
cd "$(dirname "$0")/.."

# PyICU (collation) is built from source against ICU: libicu-dev, pkg-config, a C++ compiler, Python's headers.
debs=(libicu-dev pkg-config g++ python3-dev)
case "$mode" in
  site) ;;
  test) debs+=(itstool gettext chromium guile-3.0 libglib2.0-dev gcc freecell-solver-bin) ;;
  bench) debs+=(itstool gettext chromium guile-3.0 libglib2.0-dev gcc freecell-solver-bin yelp-tools) ;;
  *) echo "usage: scripts/setup.sh site|test|bench" >&2; exit 2 ;;
esac

missing=()
# Debian's python3 needs python3-venv for `python3 -m venv`.
python3 -c "import ensurepip, venv" 2>/dev/null || debs+=(python3-venv)
# npm installs the Pyodide runtime into node_modules/ (copied into the site by the build).
command -v npm >/dev/null 2>&1 || debs+=(nodejs npm)
for pkg in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
extras=""
[ "$mode" = test ] && extras="[test]"
[ "$mode" = bench ] && extras="[test,bench]"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".${extras}"

# Exactly the versions of package-lock.json; no install scripts are needed (the package is plain files).
# Skipped when node_modules already holds the locked version.
wanted=$(.venv/bin/python -c 'import json; print(json.load(open("package-lock.json"))["packages"]["node_modules/pyodide"]["version"])')
have=$(.venv/bin/python -c 'import json; print(json.load(open("node_modules/pyodide/package.json"))["version"])' 2>/dev/null || true)
if [ "$wanted" != "$have" ]; then
  npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
fi

# The reference tests run GNOME AisleRiot's compiled game rules under guile-3.0 (unpacked, not installed).
if [ "$mode" != site ]; then
  bash scripts/aisleriot-reference.sh
fi
