#!/usr/bin/env bash
# Checks the browser build in headless Chromium (web/test.mjs):
#   bash web/test.sh [NATIVE_BALLPIT]      from the repository root
# after bash web/build.sh. NATIVE_BALLPIT (default build/ballpit) is the
# desktop program whose dumps the page must match byte for byte.
# Installs Debian's chromium and, into the build folder, playwright-core
# from npm (no browser download: it drives /usr/bin/chromium). Prints TAP.
set -euo pipefail
cd "$(dirname "$0")/.."
export DEBIAN_FRONTEND=noninteractive
BUILD=${BALLPIT_WEB_BUILD:-build-web}
NATIVE=${1:-build/ballpit}

missing=()
dpkg-query -W -f='${Status}\n' chromium 2>/dev/null | grep -q '^install ok installed$' ||
    missing+=(chromium)
# Node.js and npm from Debian where there are none yet (a machine may have
# its own, with npm inside).
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update
    $sudo apt-get install -y --no-install-recommends "${missing[@]}" </dev/null
fi
command -v npm >/dev/null || { echo "web/test.sh: npm is needed for playwright-core" >&2; exit 1; }
if [ ! -f "$BUILD/node/node_modules/playwright-core/package.json" ]; then
    mkdir -p "$BUILD/node"
    npm install --prefix "$BUILD/node" --no-save --no-audit --no-fund --loglevel=error \
        playwright-core@1 </dev/null
fi
for f in index.html ballpit.js ballpit.wasm; do
    [ -f "$BUILD/$f" ] || { echo "web/test.sh: no $BUILD/$f: run bash web/build.sh" >&2; exit 1; }
done
[ -x "$NATIVE" ] || { echo "web/test.sh: no native program at $NATIVE" >&2; exit 1; }
exec node web/test.mjs "$BUILD" "$NATIVE"
