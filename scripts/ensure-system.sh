#!/usr/bin/env bash
# Install the Debian packages RummyHub needs, only when they are missing.
# Usage: scripts/ensure-system.sh python|node|chromium|gettext|redis ...
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "ensure-system: not root and no sudo; install the packages named below by hand." >&2
  fi
fi

updated=""
apt_install() {
  if [ -z "$updated" ]; then
    $SUDO apt-get update -qq
    updated=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

for what in "$@"; do
  case "$what" in
    python)
      # Debian ships venv/ensurepip separately from python3.
      if ! python3 -c "import venv, ensurepip" >/dev/null 2>&1; then
        echo "Installing python3-venv (apt)..."
        apt_install python3-venv python3-pip
      fi ;;
    node)
      if ! command -v npm >/dev/null 2>&1; then
        echo "Installing nodejs and npm (apt)..."
        apt_install nodejs npm
      fi ;;
    chromium)
      if [ ! -x /usr/bin/chromium ]; then
        echo "Installing chromium (apt, about 30 s)..."
        apt_install chromium
      fi ;;
    gettext)
      # msgfmt and xgettext: Django's compilemessages and makemessages run them.
      if ! command -v msgfmt >/dev/null 2>&1; then
        echo "Installing gettext (apt)..."
        apt_install gettext
      fi ;;
    redis)
      if ! command -v redis-server >/dev/null 2>&1; then
        echo "Installing redis-server (apt)..."
        apt_install redis-server
      fi ;;
    *) echo "ensure-system: unknown component $what" >&2; exit 2 ;;
  esac
done
