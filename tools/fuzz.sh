#!/usr/bin/env bash
# Runs the fuzz targets of fuzz/ (cargo-fuzz, libFuzzer) one after another, each for a set
# time, and tells for each how many inputs it ran and whether it found a crash.
#
# Usage: tools/fuzz.sh [OPTIONS] [SECONDS] [TARGET...]
#   SECONDS          time per target (default 60)
#   TARGET           definition fen moves record uci xboard (default: all of them)
#   --runs N         also stop a target after N inputs (libFuzzer -runs)
#   --keep-going     go on after a crash, a timeout or running out of memory (libFuzzer
#                    -fork=1 -ignore_crashes=1 ...): every finding is saved and the run lasts
#                    its whole time; without it a target stops at its first finding
#   --known TAGS     let known findings pass (comma-separated tags, see `known` in
#                    fuzz/src/lib.rs: san-castle-twin, fen-hidden-hand,
#                    uci-setoption-while-infinite), so that a long run
#                    looks for new ones; sets RULEBOOK_FUZZ_KNOWN
#   --timeout S      an input running longer than S seconds is a finding (default 20)
#   --jobs N         with --keep-going: N fuzzing processes at once (libFuzzer -fork=N);
#                    `xboard` spends most of its time waiting for its search threads, so
#                    2 or 3 of them fit on one core
#
# Examples:
#   tools/fuzz.sh                      # every target for 60 s
#   tools/fuzz.sh 600 fen record       # two targets, 10 minutes each
#   tools/fuzz.sh --keep-going --known san-castle-twin 1800 definition
#   # a finding, replayed with its panic message and backtrace:
#   RUSTC_BOOTSTRAP=1 cargo fuzz run --sanitizer none fen fuzz/artifacts/fen/crash-...
#   # what a finding's bytes mean (which game the first byte picks, the text):
#   cargo run --manifest-path fuzz/Cargo.toml --example seeds -- describe fen FILE
#
# What it does: installs cargo-fuzz from crates.io if it is missing; builds the targets
# with RUSTC_BOOTSTRAP=1 (libFuzzer needs nightly compiler flags; this lets the stable
# toolchain take them) and without a sanitizer (the library has no unsafe code; the targets
# look for panics, hangs and broken invariants), `uci` and `xboard` also without
# comparison tracing (twice as fast; a dictionary of their commands stands in for it), into
# fuzz/target/notc; writes the seed corpora into fuzz/corpus/<target> from the shipped
# definitions, the perft suites, the game records and the protocol transcripts of tests/
# (fuzz/examples/seeds.rs); runs each target with libFuzzer's -max_total_time. Findings go
# to fuzz/artifacts/<target>/, logs to fuzz/logs/<target>.log. fuzz/regressions/ keeps the
# minimized findings reported so far (fuzz/regressions/README.md says what each one is).
#
# The protocol targets rewrite their input so that no search is long (see `uci_input` and
# `xboard_input` in fuzz/src/lib.rs): UCI `go` gets `depth 2 nodes 1000` appended and its
# own limits capped, `go perft` at most 1, `Hash` at most 16 MB, at most 3 `setoption`
# lines; XBoard gets `sd 2` and `st 0.04` at the start and again after `new`, `sd`, `st`
# and `level`. Without that a `go` without limits searches until stopped (or, at a depth
# alone, for minutes in big games) and libFuzzer would report it as a hang. Set
# RULEBOOK_FUZZ_RAW=1 to replay a protocol input exactly as written.
#
# Speed: each protocol input compiles its game and allocates the engine's 16 MB hash, so
# `uci` and `xboard` run 10-60 inputs a second (the others hundreds to thousands): give
# them the most time, e.g. `tools/fuzz.sh --keep-going --jobs 3 3600 xboard`.
set -euo pipefail
cd "$(dirname "$0")/.."

ALL_TARGETS=(definition fen moves record uci xboard)
seconds=60
runs=""
keep_going=0
jobs=1
timeout=20
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --keep-going) keep_going=1; shift ;;
    --known) export RULEBOOK_FUZZ_KNOWN="$2"; shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    [0-9]*) seconds="$1"; shift ;;
    *)
      if [[ " ${ALL_TARGETS[*]} " == *" $1 "* ]]; then
        targets+=("$1"); shift
      else
        echo "unknown target or option: $1 (try --help)" >&2; exit 2
      fi ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=("${ALL_TARGETS[@]}")

export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked
fi

# Build flags per target: the protocol targets skip comparison tracing (see above).
build_args() {
  case "$1" in
    uci|xboard) echo "--sanitizer none --no-trace-compares --target-dir fuzz/target/notc" ;;
    *) echo "--sanitizer none" ;;
  esac
}

echo "== building"
for t in "${targets[@]}"; do
  # shellcheck disable=SC2046
  cargo fuzz build $(build_args "$t") "$t"
done

echo "== seed corpora"
cargo run --quiet --manifest-path fuzz/Cargo.toml --example seeds -- corpus fuzz/corpus

mkdir -p fuzz/logs
summary=()
for t in "${targets[@]}"; do
  mkdir -p "fuzz/artifacts/$t"
  before="$(ls "fuzz/artifacts/$t" | sort)"
  args=(-max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=4096 -print_final_stats=1)
  [ -n "$runs" ] && args+=(-runs="$runs")
  [ -f "fuzz/dicts/$t.dict" ] && args+=(-dict="fuzz/dicts/$t.dict")
  [ "$keep_going" = 1 ] && args+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  log="fuzz/logs/$t.log"
  echo "== $t: ${seconds}s${runs:+, at most $runs inputs} (log: $log)"
  status=0
  # shellcheck disable=SC2046
  cargo fuzz run $(build_args "$t") "$t" -- "${args[@]}" >"$log" 2>&1 || status=$?
  # Inputs run: the final statistics, or (fork mode) the last progress line's count.
  inputs="$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)"
  if [ -z "$inputs" ]; then
    inputs="$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || true)"
  fi
  new="$(comm -13 <(echo "$before") <(ls "fuzz/artifacts/$t" | sort) | sed "s|^|fuzz/artifacts/$t/|" || true)"
  if [ -n "$new" ]; then
    found="FOUND $(echo "$new" | wc -l) finding(s):"
    while read -r f; do
      found+=$'\n'"    $f"
    done <<<"$new"
    msg="$(grep -m1 -A1 'panicked at' "$log" | tr '\n' ' ' || true)"
    [ -n "$msg" ] && found+=$'\n'"    first panic: $msg"
    grep -q 'ERROR: libFuzzer: timeout' "$log" && found+=$'\n'"    (a timeout: an input ran longer than ${timeout}s)"
  elif [ "$status" != 0 ]; then
    found="STOPPED with status $status and no artifact: see $log"
  else
    found="no crash"
  fi
  line="$t: ${inputs:-?} inputs run; $found"
  echo "$line"
  summary+=("$line")
done

echo
echo "== summary"
printf '%s\n' "${summary[@]}"
