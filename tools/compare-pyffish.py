#!/usr/bin/env python3
"""Compares Rulebook's legal moves with Fairy-Stockfish's (the `pyffish` module) at every ply
of random games, for the library variants: `tools/compare-pyffish.py [GAMES] [PLIES] [VARIANT...]`.

Games start in turn from the start position and from each FEN of the variant's perft suite
(its Chess960 positions left out). At each ply both programs list the legal moves of the same FEN (Fairy-Stockfish's own FEN,
which Rulebook must read; a Chess960 castling may be written either way, and a wall the
rules place themselves is dropped from Fairy-Stockfish's move), and the FEN must round-trip:
Rulebook's FEN of the position, read back by Fairy-Stockfish, must be Fairy-Stockfish's own (all fields but the move counters, which
the FEN tests compare). Two differences of form are accepted as the same position: the order
of the pieces in hand, and an en-passant square that no capture can use (Fairy-Stockfish
writes one after every double step of some pawns), checked by both FENs giving the same
legal moves. Where a definition offers Fairy-Stockfish's reading of a rule as an option
(`mating-drops-lose`), it is turned on. Needs `pip install pyffish` and a release build (`cargo build --release`, or the binary named by
`RULEBOOK_BIN`)."""
import json, random, re, subprocess, sys, os, tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("RULEBOOK_BIN") or os.path.join(ROOT, "target", "release", "rulebook")

# Options by which a definition offers Fairy-Stockfish's reading of a rule where it departs
# from the game's own (a pawn-drop mate played and lost): turned on wherever declared.
FSF_READINGS = ["mating-drops-lose"]

def readings(definition):
    """The `--option` arguments that make `definition` play as Fairy-Stockfish does."""
    text = open(definition).read()
    return [a for o in FSF_READINGS if re.search(rf"^option {o} ", text, re.M)
            for a in ("--option", o)]

def rulebook(definition, fen):
    out = subprocess.run([BIN, "moves", definition, "--fen", fen, "--format", "json"]
                         + readings(definition),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{fen}: {out.stdout}{out.stderr}")
    return json.loads(out.stdout)

def rulebook_fen(definition, fen):
    out = subprocess.run([BIN, "board", definition, "--fen", fen] + readings(definition),
                         capture_output=True, text=True)
    line = next(l for l in out.stdout.splitlines() if l.startswith("position: "))
    return line[len("position: "):]

def normal(fen):
    """A FEN without its move counters, with each side's hand in a fixed order."""
    fields = fen.split()
    board = fields[0]
    if "[" in board:
        i = board.index("[")
        hand = board[i + 1:-1]
        board = board[:i] + "[" + "".join(sorted(hand)) + "]"
    rest = fields[1:]
    # The halfmove and fullmove counters are the last two numbers (a lichess check count
    # may follow them; Fairy-Stockfish does not write one).
    numbers = [i for i, f in enumerate(rest) if f.isdigit()]
    drop = set(numbers[-2:])
    return [board] + [f for i, f in enumerate(rest) if i not in drop]

def same_position(sf, name, ours, theirs):
    """Whether two FENs describe the same position for Fairy-Stockfish."""
    a, b = normal(ours), normal(theirs)
    if a == b:
        return True
    # Differing only in an en-passant field: the same if no capture can use the square.
    if len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1 and a[3] != b[3]:
        return sorted(sf.legal_moves(name, ours, [])) == sorted(sf.legal_moves(name, theirs, []))
    return False

def plain(move, leave_walls):
    """Fairy-Stockfish's move without a wall it writes after a comma where the rules put the
    wall themselves: `a1b1,b1a1` (to b1, a wall on a1, the square left) is Rulebook's `a1b1`
    under `moves leave walls`. Where a move places its wall, both write it."""
    if "," not in move or not leave_walls:
        return move
    base, gate = move.split(",", 1)
    squares = re.findall(r"[a-z][0-9]+", base)
    wall = re.findall(r"[a-z][0-9]+", gate)[-1]
    return base if squares and wall == squares[0] else move

def castlings_matched(sf, name, definition, fen, ours, theirs):
    """The two lists with castlings written two ways taken as one: Fairy-Stockfish writes a
    Chess960 castling as the king taking its rook (`e1h1`), Rulebook as the king's move
    (`e1g1`). A move of each list that is not in the other counts as the same castling when
    both lead to the same position."""
    only_ours = set(ours) - set(theirs)
    only_theirs = set(theirs) - set(ours)
    if not only_ours or not only_theirs:
        return ours, theirs
    after = {}
    for m in only_theirs:
        after[tuple(normal(sf.get_fen(name, fen, [m])))] = m
    same = set()
    for m in only_ours:
        out = subprocess.run([BIN, "board", definition, "--fen", fen, "--moves", m]
                             + readings(definition),
                             capture_output=True, text=True)
        line = next((l for l in out.stdout.splitlines() if l.startswith("position: ")), None)
        if line is None:
            continue
        key = tuple(normal(sf.get_fen(name, line[len("position: "):], [])))
        if key in after:
            same.add((m, after[key]))
    mine = {a for a, _ in same}
    yours = {b for _, b in same}
    return sorted(m for m in ours if m not in mine), sorted(m for m in theirs if m not in yours)

def suite_fens(name):
    """The FENs of the variant's perft suite (Chess960 ones left out: pyffish reads them only
    with its Chess960 flag), so that games also start from positions the start cannot reach
    (pieces in hand, a lone royal)."""
    path = os.path.join(ROOT, "tests", "perft", "library", name + ".toml")
    if not os.path.exists(path):
        return []
    with open(path, "rb") as f:
        cases = tomllib.load(f).get("case", [])
    return [c["fen"] for c in cases if "fen" in c and "Chess960" not in c.get("name", "")]

def main():
    import pyffish as sf
    # Games of Fairy-Stockfish's variants.ini (Tic-tac-toe, Connect Four) are not built in.
    sf.load_variant_config(open(os.path.join(ROOT, "tests", "fixtures", "fsf", "variants.ini")).read())
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    library = os.path.join(ROOT, "definitions", "library")
    # The shipped games Fairy-Stockfish also knows, then the library.
    shipped = ["chess", "shogi", "xiangqi"]
    names = sys.argv[3:] or shipped + sorted(
        f[:-8] for f in os.listdir(library) if f.endswith(".variant"))
    rng = random.Random(1)
    failures = 0
    known = set(sf.variants())
    for name in names:
        if name not in known:
            print(f"{name}: not a game Fairy-Stockfish plays, skipped")
            continue
        definition = os.path.join(library, name + ".variant")
        if not os.path.exists(definition):
            definition = os.path.join(ROOT, "definitions", name + ".variant")
        positions = 0
        leave_walls = re.search(r"^\s*moves leave walls", open(definition).read(), re.M)
        starts = [sf.start_fen(name)] + suite_fens(name)
        for game in range(games):
            fen = sf.get_fen(name, starts[game % len(starts)], [])
            for _ in range(plies):
                given = sf.legal_moves(name, fen, [])
                theirs = sorted(plain(m, leave_walls) for m in given)
                listed = rulebook(definition, fen)
                ours = sorted(m["coord"] for m in listed)
                ours, theirs = castlings_matched(sf, name, definition, fen, ours, theirs)
                positions += 1
                written = rulebook_fen(definition, fen)
                back = sf.get_fen(name, written, [])
                if not same_position(sf, name, back, fen):
                    failures += 1
                    print(f"{name}: FEN {fen} is written back as {written}, "
                          f"which Fairy-Stockfish reads as {back}")
                    break
                if ours != theirs:
                    failures += 1
                    print(f"{name}: {fen}\n  only Rulebook: {sorted(set(ours) - set(theirs))}"
                          f"\n  only Fairy-Stockfish: {sorted(set(theirs) - set(ours))}")
                    break
                if not theirs:
                    break
                move = rng.choice(given)
                fen = sf.get_fen(name, fen, [move])
        print(f"{name}: {positions} positions compared")
    print("differences:", failures)
    sys.exit(1 if failures else 0)

if __name__ == "__main__":
    main()
