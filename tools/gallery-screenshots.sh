#!/usr/bin/env bash
# Renders the diagram gallery of every shipped definition in a real browser: writes each
# gallery with `rulebook diagram FILE --all --out DIR` and has headless Chromium take a
# screenshot of its index.html. Installs Debian's chromium package if it is missing.
# Usage: tools/gallery-screenshots.sh [OUT_DIR]   (default: target/gallery)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/gallery}"
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
cargo build --release --quiet
mkdir -p "$out"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
for def in definitions/*.variant; do
  name="$(basename "$def" .variant)"
  target/release/rulebook diagram "$def" --all --out "$out/$name"
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --user-data-dir="$profile" \
    --screenshot="$out/$name.png" --window-size=1100,1900 \
    "file://$(realpath "$out/$name/index.html")" 2>/dev/null
  test -s "$out/$name.png"
  echo "$out/$name.png"
done
