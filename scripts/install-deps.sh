#!/usr/bin/env bash
# Installs the Debian packages that are missing (needs root): those of
# scripts/packages.txt (build and run), and with --tests also those of
# scripts/packages-test.txt (Chromium, for the HTML report check, which skips itself
# where Chromium cannot be installed: on Ubuntu the package is a snap stub; clang, for
# the bounded libFuzzer run, which skips itself without it).
set -euo pipefail
cd "$(dirname "$0")/.."
missing() { for p in $(cat "$1"); do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done; }
need=$(missing scripts/packages.txt)
optional=""
[ "${1:-}" = "--tests" ] && optional=$(missing scripts/packages-test.txt)
[ -z "$need$optional" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "linkscope: missing packages: $need $optional (run as root, or install them)" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
[ -n "$need" ] && apt-get install -y -q --no-install-recommends $need >/dev/null
if [ -n "$optional" ]; then
  apt-get install -y -q --no-install-recommends $optional >/dev/null ||
    echo "linkscope: could not install $optional: the HTML check will be skipped" >&2
fi
exit 0
