#!/usr/bin/env bash
# Runs a command as a fresh machine with no browser would: every system Chromium is hidden by an
# overlay mount with a whiteout (in a private mount namespace, so nothing outside this command sees
# a change), Playwright's download cache is pointed at an empty folder, and CHROMIUM_PATH is unset.
# The e2e suite must then find the Chromium inside @sparticuz/chromium by itself, so a missing
# install step cannot hide behind the machine's own browser.
#   usage: bash .ci/without-browser.sh npm test
set -euo pipefail
unset CHROMIUM_PATH
export PLAYWRIGHT_BROWSERS_PATH="$(mktemp -d)"

hidden=()
for p in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
  [ -e "$p" ] && hidden+=("$p")
done
if [ ${#hidden[@]} -eq 0 ]; then
  echo "ci: no system Chromium on this machine"
  exec "$@"
fi
if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1; then
  echo "ci: cannot hide ${hidden[*]} (needs root and unshare)" >&2
  exit 1
fi
echo "ci: hiding ${hidden[*]} from the tests"
export CI_HIDE="${hidden[*]}"
exec unshare -m bash -c '
  set -euo pipefail
  mount --make-rprivate /
  for p in $CI_HIDE; do
    dir=$(dirname "$p"); layer=$(mktemp -d)
    mkdir -p "$layer/up" "$layer/work"
    mknod "$layer/up/$(basename "$p")" c 0 0     # an overlay whiteout: the file is gone above it
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$layer/up,workdir=$layer/work" "$dir"
  done
  for p in $CI_HIDE; do [ ! -e "$p" ] || { echo "ci: $p is still visible" >&2; exit 1; }; done
  exec "$@"
' bash "$@"
