#!/usr/bin/env bash
# Builds the engine for the page: web/dist/rulebook.wasm.
#
# WebAssembly needs a compiler with the wasm32 target and the standard library's source,
# which Debian packages apart from the usual toolchain: rustc-web and cargo-web (a second
# rustc and cargo in /usr/bin), rust-web-src (the library's source, built here with
# -Zbuild-std) and lld (wasm-ld, the linker). `--install` installs them first (as root), with
# binaryen (wasm-opt), Chromium and the browser tests' driver (playwright-core, from npm).
set -euo pipefail
cd "$(dirname "$0")"
if [[ "${1:-}" == "--install" ]]; then
  apt-get install -y --no-install-recommends rustc-web cargo-web rust-web-src lld binaryen chromium
  npm ci --no-audit --no-fund
fi
export RUSTC=/usr/bin/rustc
# -Zbuild-std is unstable: Debian's compiler allows it under this switch.
export RUSTC_BOOTSTRAP=1
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=/usr/bin/wasm-ld
export CARGO_TARGET_DIR="$PWD/engine/target"
/usr/bin/cargo build --manifest-path engine/Cargo.toml --release \
  --target wasm32-unknown-unknown -Zbuild-std=std,panic_abort
mkdir -p dist
built=engine/target/wasm32-unknown-unknown/release/rulebook_web.wasm
# Binaryen's optimiser makes the module a tenth smaller and perft a little faster; without it
# the module works the same.
if command -v wasm-opt >/dev/null; then
  wasm-opt -O3 --enable-bulk-memory --enable-sign-ext --enable-nontrapping-float-to-int \
    --enable-mutable-globals --enable-multivalue --enable-reference-types "$built" -o dist/rulebook.wasm
else
  cp "$built" dist/rulebook.wasm
fi
cp index.html style.css rulebook.js dist/
# The grammar's keywords, for the editor's colours: every `kw_` rule's word.
{
  printf 'export const keywords = '
  sed -n 's/^kw_[a-z_0-9]* *= *@{ *"\([a-z-]*\)".*/"\1"/p' ../grammar/variant.pest | sort -u |
    paste -sd, | sed 's/^/[/; s/$/];/'
} > keywords.js
# The page's script and its editor (CodeMirror, from npm) in one file.
node_modules/.bin/esbuild app.js --bundle --format=esm --minify --outfile=dist/app.js
# The worker with the loader in it: one script, which the page starts from memory.
node_modules/.bin/esbuild worker.js --bundle --format=iife --minify --outfile=dist/worker.js
# The shipped definitions, for the page's menu.
node --input-type=module -e '
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
const list = [];
for (const [group, dir] of [["games", "../definitions"], ["library", "../definitions/library"]]) {
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".variant")).sort()) {
    const text = readFileSync(`${dir}/${file}`, "utf8");
    const name = /variant\s+"([^"]+)"/.exec(text)?.[1] ?? file;
    list.push({ group, file: group === "games" ? file : `library/${file}`, name, text });
  }
}
writeFileSync("dist/definitions.json", JSON.stringify(list));
'
ls -l dist/rulebook.wasm
