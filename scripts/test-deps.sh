#!/usr/bin/env bash
# Installs what the test suites need when the machine lacks it: git (backup
# tests use a local bare repository) and Chromium (the web page's tests drive
# a real headless browser). Safe to run again: it skips what is there.
set -euo pipefail
need=()
command -v git >/dev/null 2>&1 || need+=(git)
[ -x /usr/bin/chromium ] || need+=(chromium)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
