#!/usr/bin/env bash
# Renders the gallery page of every shipped definition in a real browser: writes each gallery
# with `rulebook diagram FILE --all --out DIR` and has headless Chromium take a screenshot of
# its index.html, 1200 px wide (the page's widest layout) and TALL px high (default 4200: the
# title, the rules, the board and the first pieces). Installs Debian's chromium package if it
# is missing. The browser runs with a fresh profile and its background networking off; the
# page itself fetches nothing.
# Usage: tools/gallery-screenshots.sh [OUT_DIR [TALL [GAME...]]]   (default: target/gallery)
# The screenshots in docs/ were taken with `tools/gallery-screenshots.sh target/gallery 4800
# gi-qi-game` and `tools/gallery-screenshots.sh target/gallery 9200 gala-xiangqi`.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/gallery}"
tall="${2:-4200}"
shift $(( $# > 2 ? 2 : $# ))
if ! command -v chromium >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq chromium >/dev/null
fi
cargo build --release --quiet
mkdir -p "$out"
profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
if [ $# -gt 0 ]; then
  defs=()
  for game in "$@"; do defs+=("definitions/$game.variant"); done
else
  defs=(definitions/*.variant)
fi
for def in "${defs[@]}"; do
  name="$(basename "$def" .variant)"
  target/release/rulebook diagram "$def" --all --out "$out/$name" >/dev/null
  chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --no-first-run --hide-scrollbars \
    --user-data-dir="$profile" --screenshot="$out/$name.png" --window-size="1200,$tall" \
    "file://$(realpath "$out/$name/index.html")" 2>/dev/null
  test -s "$out/$name.png"
  echo "$out/$name.png"
done
