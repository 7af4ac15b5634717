#!/usr/bin/env bash
# Installs what the test suites need when the machine lacks it: git (backup
# tests use a local bare repository), Chromium (the web page's tests drive
# a real headless browser) and Node with npm, for the TypeScript that checks
# the page's JSDoc types and the axe-core the browser tests run on every
# view (both pinned in board/internal/web/check). Safe to run again: it
# skips what is there.
set -euo pipefail
need=()
command -v git >/dev/null 2>&1 || need+=(git)
[ -x /usr/bin/chromium ] || need+=(chromium)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
check="$(dirname "$0")/../board/internal/web/check"
# Installed again when the lock file changed since (a package was added).
if [ ! -d "$check/node_modules" ] || [ "$check/package-lock.json" -nt "$check/node_modules/.package-lock.json" ]; then
  (cd "$check" && npm ci --no-audit --no-fund)
fi
