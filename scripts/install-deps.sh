#!/usr/bin/env bash
# Installs the Debian packages of scripts/packages.txt that are missing (needs root).
set -euo pipefail
cd "$(dirname "$0")/.."
missing=$(for p in $(cat scripts/packages.txt); do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "linkscope: missing packages: $missing (run as root, or install them)" >&2
  exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends $missing >/dev/null
