#!/usr/bin/env python3
"""Compares Rulebook's legal moves with Fairy-Stockfish's (the `pyffish` module) at every ply
of random games, for the library variants: `tools/compare-pyffish.py [GAMES] [PLIES] [VARIANT...]`.

At each ply both programs list the legal moves of the same FEN (Fairy-Stockfish's own FEN,
which Rulebook must read), and Rulebook's FEN of the position must equal Fairy-Stockfish's (board, side, castling and
en passant; the move counters are compared by the FEN tests).
Needs `pip install pyffish` and a release build (`cargo build --release`)."""
import json, random, subprocess, sys, os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "rulebook")

def rulebook(definition, fen):
    out = subprocess.run([BIN, "moves", definition, "--fen", fen, "--format", "json"],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{fen}: {out.stdout}{out.stderr}")
    return json.loads(out.stdout)

def rulebook_fen(definition, fen):
    out = subprocess.run([BIN, "board", definition, "--fen", fen], capture_output=True, text=True)
    line = next(l for l in out.stdout.splitlines() if l.startswith("position: "))
    return line[len("position: "):]

def main():
    import pyffish as sf
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    plies = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    library = os.path.join(ROOT, "definitions", "library")
    names = sys.argv[3:] or sorted(f[:-8] for f in os.listdir(library) if f.endswith(".variant"))
    rng = random.Random(1)
    failures = 0
    for name in names:
        definition = os.path.join(library, name + ".variant")
        positions = 0
        for _ in range(games):
            fen = sf.get_fen(name, sf.start_fen(name), [])
            for _ in range(plies):
                theirs = sorted(sf.legal_moves(name, fen, []))
                listed = rulebook(definition, fen)
                ours = sorted(m["coord"] for m in listed)
                positions += 1
                written = rulebook_fen(definition, fen)
                if written.split()[:4] != fen.split()[:4]:
                    failures += 1
                    print(f"{name}: FEN {fen} is written back as {written}")
                    break
                if ours != theirs:
                    failures += 1
                    print(f"{name}: {fen}\n  only Rulebook: {sorted(set(ours) - set(theirs))}"
                          f"\n  only Fairy-Stockfish: {sorted(set(theirs) - set(ours))}")
                    break
                if not theirs:
                    break
                move = rng.choice(theirs)
                fen = sf.get_fen(name, fen, [move])
        print(f"{name}: {positions} positions compared")
    print("differences:", failures)
    sys.exit(1 if failures else 0)

if __name__ == "__main__":
    main()
