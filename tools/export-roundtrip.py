#!/usr/bin/env python3
"""Round trip of `rulebook export fsf`: `tools/export-roundtrip.py [DEFINITION...]`.

For each definition (default: the shipped games and the library), writes its Fairy-Stockfish
INI section with `rulebook export fsf` (with the options by which a definition offers
Fairy-Stockfish's reading of a rule turned on, as `tools/compare-pyffish.py` does), loads
that section into Fairy-Stockfish (`pyffish.load_variant_config`, a fresh process each) and
compares perft from the start position with Rulebook's: depths 1 to 3, 2 on boards of more
than 100 squares, stopping after a depth past 200,000 leaves (Duck chess, Amazons). A definition `export` refuses is listed with what it lacks. Prints a
table and exits non-zero on any difference. Needs `pip install pyffish` and a release
build."""
import glob, json, multiprocessing, os, re, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("RULEBOOK_BIN") or os.path.join(ROOT, "target", "release", "rulebook")
FSF_READINGS = ["mating-drops-lose"]
# The most leaves counted by recursion in Python at the last depth compared.
NODE_BUDGET = 200_000

PYFFISH_PERFT = r"""
import json, sys, pyffish as sf
ini, name, depth = sys.argv[1], sys.argv[2], int(sys.argv[3])
sf.load_variant_config(open(ini).read())
def perft(fen, d):
    moves = sf.legal_moves(name, fen, [])
    if d == 1:
        return len(moves)
    return sum(perft(sf.get_fen(name, fen, [m]), d - 1) for m in moves)
start = sf.start_fen(name)
print(json.dumps([perft(start, d) for d in range(1, depth + 1)]))
"""


def readings(definition):
    text = open(definition).read()
    return [a for o in FSF_READINGS if re.search(rf"^option {o} ", text, re.M)
            for a in ("--option", o)]


def check(definition):
    name = os.path.basename(definition)[:-len(".variant")]
    out = subprocess.run([BIN, "export", "fsf", definition] + readings(definition),
                         capture_output=True, text=True)
    if out.returncode != 0:
        lacks = [l.strip()[2:] for l in out.stderr.splitlines() if l.strip().startswith("- ")]
        return (name, "refused", "; ".join(lacks) or out.stderr.strip())
    ini_path = os.path.join("/tmp", f"roundtrip-{name}.ini")
    with open(ini_path, "w") as f:
        f.write(out.stdout)
    section = re.search(r"^\[([^\]:]+)", out.stdout, re.M).group(1)
    board = re.search(r"^board (\d+) x (\d+)", open(definition).read(), re.M)
    squares = int(board.group(1)) * int(board.group(2))
    depth = 2 if squares > 100 else 3
    ours = []
    for d in range(1, depth + 1):
        p = subprocess.run([BIN, "perft", definition, str(d)] + readings(definition),
                           capture_output=True, text=True)
        ours.append(int(re.search(r"Nodes searched: (\d+)", p.stdout).group(1)))
        # Counting by recursion in Python is slow: stop where the tree grows too wide.
        if ours[-1] > NODE_BUDGET:
            break
    depth = len(ours)
    t = subprocess.run([sys.executable, "-c", PYFFISH_PERFT, ini_path, section, str(depth)],
                       capture_output=True, text=True)
    if t.returncode != 0:
        return (name, "DIFFERENT", f"pyffish: {t.stderr.strip().splitlines()[-1:]}")
    theirs = json.loads(t.stdout)
    if ours != theirs:
        return (name, "DIFFERENT", f"perft Rulebook {ours}, Fairy-Stockfish {theirs}")
    return (name, "agree", " ".join(map(str, ours)))


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "definitions", "*.variant"))
                                   + glob.glob(os.path.join(ROOT, "definitions", "library", "*.variant")))
    with multiprocessing.Pool(2) as pool:
        rows = pool.map(check, files, chunksize=1)
    for name, outcome, detail in rows:
        print(f"{name:24} {outcome:10} {detail}")
    agree = sum(r[1] == "agree" for r in rows)
    differ = sum(r[1] == "DIFFERENT" for r in rows)
    refused = sum(r[1] == "refused" for r in rows)
    print(f"{len(rows)} definitions: {agree} exported and agree, {differ} differ, {refused} refused")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
