#!/usr/bin/env bash
# Installs what the test suites need when the machine lacks it: git (backup
# tests use a local bare repository). Safe to run again: it skips what is there.
set -euo pipefail
need=()
command -v git >/dev/null 2>&1 || need+=(git)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}"
fi
