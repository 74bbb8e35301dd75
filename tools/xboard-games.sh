#!/usr/bin/env bash
# Plays Rulebook in the real XBoard under Xvfb, engine against engine, and checks each game in
# XBoard's own debug log: a game must end with a result (not `*`), and neither XBoard nor an
# engine may have called a move illegal or invalid, scored a claim false, forfeited a side,
# sent an error, or (on sixteen ranks) turned a move into a drop or a pass. The transcripts in
# tests/protocols/ pin what Rulebook says; this shows that XBoard takes it.
#
# Usage: tools/xboard-games.sh [GAME...]   (default: every game below)
#   shogi-first   Shogi, Rulebook the first engine (Sente) against Fairy-Stockfish; the log
#                 must show a declined promotion (`=`) passed between them
#   shogi-second  the same, Fairy-Stockfish the first engine (Sente)
#   gala          Gala Xiang-Qi (16x16), Rulebook against Rulebook, -rankOffset 1
#   middle        Middle Xiangqi, Rulebook (basic) against Rulebook (full), legality testing on
#   middle-block  the same, from the position of a recorded game (through tools/xboard-book.py)
#                 where red must block a rhino's check: XBoard once forfeited the block, as it
#                 was told the rhino leaps
#   chess         chess as XBoard's `normal`, Rulebook against Fairy-Stockfish
#   shots         screenshots of the start positions of Middle Xiangqi, Gala Xiang-Qi and
#                 Delegating Chess in XBoard (docs/xboard-*.png)
# Environment: OUT (default target/xboard-games), ST (seconds a move, default 1), FSF
# (default fairy-stockfish), TIMEOUT (seconds a game, default 1800).
# Needs xboard, xvfb-run and, for the Shogi and chess games, fairy-stockfish (Debian puts both
# in /usr/games); for `shots` also xdotool and ImageMagick.
# Games run under `nice`; XBoard's settings file goes to the game's directory, not ~/.xboardrc.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export PATH="/usr/games:$PATH"
out="${OUT:-target/xboard-games}"
st="${ST:-1}"
fsf="${FSF:-fairy-stockfish}"
limit="${TIMEOUT:-1800}"
defs="$root/definitions"
cargo build --release --quiet || exit 1
rb="$root/target/release/rulebook"
mkdir -p "$out"
out="$(realpath "$out")"
summary="$out/summary.txt"
: >"$summary"
failed=0

# The XBoard options every game shares: one game, a fixed time a move, the game saved, the
# debug log kept, nothing asked of a person, Debian's claim testing spelt out.
common=(-mg 1 -st "0:$(printf %02d "$st")" -ponderNextMove false -saveSettingsOnExit false
  -popupExitMessage false -popupMoveErrors false -testClaims true -checkMates true)

# play NAME XBOARD-ARGS...: one game in its own directory under $out, then its checks.
play() {
  local name=$1
  shift
  local dir="$out/$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "== $name: xboard $*" | tee -a "$summary"
  (cd "$dir" && HOME="$dir" timeout "$limit" nice xvfb-run -a -s "-screen 0 1280x1024x24" \
    xboard "${common[@]}" -fd "$dir" -sd "$dir" -sgf "$dir/game.pgn" \
    -debug -nameOfDebugFile "$dir/xboard.debug" "$@" >"$dir/xboard.out" 2>&1)
  local rc=$?
  check "$name" "$dir" "$rc"
}

# The game's result and plies from the saved PGN, and every trouble the debug log shows.
check() {
  local name=$1 dir=$2 rc=$3 bad=()
  local pgn="$dir/game.pgn" log="$dir/xboard.debug"
  [ "$rc" -eq 0 ] || bad+=("xboard exited with $rc")
  local result="none" reason="" plies=0
  if [ -s "$pgn" ]; then
    result=$(sed -n 's/^\[Result "\(.*\)"\]/\1/p' "$pgn" | tail -1)
    # The movetext without comments, move numbers, variations and the result.
    local moves
    moves=$(sed '/^\[/d' "$pgn" | tr '\n' ' ' | sed -e 's/{[^}]*}//g' -e 's/([^)]*)//g')
    reason=$(sed '/^\[/d' "$pgn" | tr '\n' ' ' | grep -o '{[^}]*} *\(1-0\|0-1\|1/2-1/2\|\*\) *$' |
      sed 's/ *\(1-0\|0-1\|1\/2-1\/2\|\*\) *$//')
    plies=$(echo "$moves" | tr ' ' '\n' | grep -v -E '^$|^[0-9]+\.+$|^(1-0|0-1|1/2-1/2|\*)$' | wc -l)
    if [ "$name" = gala ] && echo "$moves" | grep -q '@'; then
      bad+=("a drop in the record: $(echo "$moves" | tr ' ' '\n' | grep '@' | head -3 | tr '\n' ' ')")
    fi
  else
    bad+=("no game saved")
  fi
  case "$result" in 1-0 | 0-1 | 1/2-1/2) ;; *) bad+=("no result ($result)") ;; esac
  if [ -s "$log" ]; then
    local pat='Illegal move|[Ii]nvalid move|False (win|draw) claim|[Ff]orfeit|<(first |second): *Error|tellusererror|did not send setup|not supported|does not play'
    local n
    # Fairy-Stockfish answers `random`, `post` and `computer`, which it does not implement,
    # with `Error (unkown command)`, spelt so: not a fault of the game.
    local troubles
    troubles=$(grep -E "$pat" "$log" | grep -v 'Error (unkown command)')
    n=$(printf '%s' "$troubles" | grep -c .)
    [ "$n" -eq 0 ] || bad+=("$n troubled line(s) in the debug log: $(echo "$troubles" | head -3 | tr '\n' '|')")
    # A second setboard to one engine means XBoard sent a pass (a move it read as a null
    # drop) as the whole position.
    for e in 'first ' second; do
      n=$(grep -c ">$e: setboard" "$log")
      [ "$n" -le 1 ] || bad+=("$n setboards to the $e engine")
    done
    if [ "${name%-*}" = shogi ]; then
      # The log writes `usermove` and the move as two pieces, each with its own prefix.
      local declined
      declined=$(grep -E '>(first |second): [a-i][1-9][a-i][1-9]=$' "$log" | sed 's/.*: //')
      n=$(printf '%s' "$declined" | grep -c .)
      echo "   declined promotions passed to an engine: $n ($(echo $declined))" | tee -a "$summary"
      [ "$n" -gt 0 ] || bad+=("no declined promotion happened")
    fi
  else
    bad+=("no debug log")
  fi
  echo "   result $result $reason, $plies plies" | tee -a "$summary"
  if [ ${#bad[@]} -eq 0 ]; then
    echo "   ok" | tee -a "$summary"
  else
    failed=1
    printf '   PROBLEM: %s\n' "${bad[@]}" | tee -a "$summary"
  fi
}

# shot NAME DEFINITION XBOARD-ARGS...: XBoard's window once the engine has set the board up.
shot() {
  local name=$1 def=$2
  shift 2
  local dir="$out/shot-$name"
  rm -rf "$dir"
  mkdir -p "$dir"
  HOME="$dir" timeout 120 xvfb-run -a -s "-screen 0 1600x1200x24" bash -c '
    xboard -fcp "$0" -fd "$1" -saveSettingsOnExit false -popupExitMessage false \
      -messageSuppress "Right-clicking menu item or dialog text pops up help on it" \
      -useBoardTexture false -debug -nameOfDebugFile "$1/xboard.debug" -size "$2" "${@:3}" >"$1/xboard.out" 2>&1 &
    sleep 8
    win=$(xdotool search --onlyvisible --name "^xboard" | head -1)
    import -window "${win:-root}" "$1/window.png"
    kill $!' "$rb xboard $def" "$dir" "${SIZE:-medium}" "$@"
  if [ -s "$dir/window.png" ]; then
    convert "$dir/window.png" -strip +dither -colors 64 "$root/docs/xboard-$name.png"
    echo "== shot $name: docs/xboard-$name.png" | tee -a "$summary"
  else
    failed=1
    echo "== shot $name: PROBLEM: no screenshot" | tee -a "$summary"
  fi
}

# The Shogi games open with a bishop exchange in which Gote declines the promotion (h8b2=, as
# XBoard writes it), so that every game passes a declined promotion to both engines; more may
# come in play.
cat >"$out/shogi-opening.pgn" <<'PGN'
[Event "Bishop exchange, promotion declined"]
[Variant "shogi"]

1. c3c4 g7g6 2. i3i4 h8b2= 3. c1b2 *
PGN

# 44 moves of a Middle Xiangqi game, in XBoard's coordinates: black's rhino gives check from
# i4, and red's only answers are the general's step and the horse's block k1i2.
cat >"$out/middle-block.txt" <<'MOVES'
a3a4 j7i7 d2d4 i7i3 d4k4 m9k7 k4c4 d9c7 a4a5+ a6a5 j2a2 c9c8 a2a9 i3e3 c4e4 b9e8 d0c2 e3d3
c2e1 d3d6 e4g4 h9g8 g4c4 c6c5 c4c7 c8c7 a0c2 c7a7 a9c9 a5a4+ c2a4 a7a4 k3k4 a4i4 j0k2 i4k4
l0k3 e6e5 k2i3 k4b4 k3l6 k9k8 k0j0 j9i7 c9c7 g8h7 i3h5 k8i8 h5i7 i8i7 e1f3 b4f4 f3g1 f4l4
j0j8 i7i8 j8i8 l9i8 l6k9 e5e4+ c3c4 l4l9 c4c5+ l9k9 g1f3 e4f4 c5c6 d6f6 f3g1 d7d3 c0c5 i8l7
g1i2 d3m3 c5e5 l7k4 e5e8 k4j1 g0g1 f6f0 e8e9 f0b0 g1h1 m3m1 i2k1 m6m5 e9b9 j1i4
MOVES

games=("$@")
[ ${#games[@]} -gt 0 ] || games=(shogi-first shogi-second gala middle middle-block chess)
for g in "${games[@]}"; do
  case "$g" in
    shogi-first) play "$g" -variant shogi -lgf "$out/shogi-opening.pgn" -fcp "$rb xboard $defs/shogi.variant" -scp "$fsf" ;;
    shogi-second) play "$g" -variant shogi -lgf "$out/shogi-opening.pgn" -fcp "$fsf" -scp "$rb xboard $defs/shogi.variant" ;;
    gala)
      # XBoard reads a move from the sixteenth rank, numbered from 1, as a drop: -rankOffset 1
      # numbers the ranks from 0, as Rulebook does on sixteen ranks. Betza cannot say bent
      # paths and shots, so XBoard cannot check moves. Its 50-move and repetition rules are
      # not Gala Xiang-Qi's: the game ends by its own (Rulebook claims).
      play "$g" -variant gala-xiang-qi -rankOffset 1 -testLegality false -ruleMoves 0 \
        -repeatsToDraw 0 -fcp "$rb xboard $defs/gala-xiangqi.variant" \
        -scp "$rb xboard $defs/gala-xiangqi.variant" -size petite
      ;;
    middle)
      # The basic engine against the full one, so that the game is likely to end in mate.
      play "$g" -variant middle-xiangqi -testLegality true \
        -fcp "$rb xboard $defs/middle-xiangqi.variant" -firstOptions "Engine=basic" \
        -scp "$rb xboard $defs/middle-xiangqi.variant"
      ;;
    middle-block)
      book="python3 $root/tools/xboard-book.py $out/middle-block.txt --"
      play "$g" -variant middle-xiangqi -testLegality true \
        -fcp "$book $rb xboard $defs/middle-xiangqi.variant" -firstOptions "Engine=basic" \
        -scp "$book $rb xboard $defs/middle-xiangqi.variant"
      ;;
    chess) play "$g" -variant normal -fcp "$rb xboard $defs/chess.variant" -scp "$fsf" ;;
    shots)
      shot middle-xiangqi "$defs/middle-xiangqi.variant" -variant middle-xiangqi
      shot gala-xiangqi "$defs/gala-xiangqi.variant" -variant gala-xiang-qi \
        -rankOffset 1 -testLegality false
      shot delegating-chess "$defs/delegating-chess.variant" -variant delegating-chess \
        -testLegality false
      ;;
    *)
      echo "unknown game $g" >&2
      exit 2
      ;;
  esac
done
exit $failed
