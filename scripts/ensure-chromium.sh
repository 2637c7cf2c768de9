#!/usr/bin/env bash
# Make sure Debian's Chromium is installed for the browser tests (tests/e2e/test_verify_page.py
# and tests/unit/test_fair_js.py drive it headless over the DevTools protocol).
#
# Idempotent: does nothing when /usr/bin/chromium (or $SAHRA_CHROMIUM) is already there.
# Installs with apt-get only when running as root on a Debian-like system; otherwise it
# says what to do and returns 0, so the rest of the gate still runs (the browser tests
# then fail with the same hint: they never skip).
set -euo pipefail

chromium="${SAHRA_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi

hint="install it with: sudo apt-get install -y chromium fonts-dejavu-core (or set SAHRA_CHROMIUM)"
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $chromium is missing and this is not root; $hint" >&2
  exit 0
fi
if ! command -v apt-get >/dev/null 2>&1; then
  echo "ensure-chromium: $chromium is missing and there is no apt-get; $hint" >&2
  exit 0
fi

echo "ensure-chromium: installing Debian's chromium (first run only)"
export DEBIAN_FRONTEND=noninteractive
# A fresh image has no package lists: update only when the install cannot find the package.
packages=(chromium fonts-dejavu-core)
if ! apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1; then
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${packages[@]}"
fi
if [ ! -x /usr/bin/chromium ]; then
  echo "ensure-chromium: apt-get finished but /usr/bin/chromium is still missing" >&2
  exit 1
fi
