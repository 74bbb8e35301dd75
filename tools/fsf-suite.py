#!/usr/bin/env python3
"""Writes tests/perft/library/VARIANT.toml from Fairy-Stockfish's tests/perft.sh.

Usage: tools/fsf-suite.py PERFT_SH VARIANT [DEFINITION]

Every `expect perft.exp VARIANT ...` line becomes one case; cases over the default node
budget are marked deep. DEFINITION defaults to library/VARIANT.variant.
"""
import re
import shlex
import sys

BUDGET = 2_000_000


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, variant = sys.argv[1], sys.argv[2]
    definition = sys.argv[3] if len(sys.argv) > 3 else f"library/{variant}.variant"
    cases = []
    for line in open(path):
        line = line.split(">")[0].strip()
        if not line.startswith("expect perft.exp "):
            continue
        words = shlex.split(line)
        if words[2] != variant:
            continue
        pos, depth, nodes = words[3], int(words[4]), int(words[5])
        chess960 = len(words) > 6 and words[6] == "true"
        cases.append((pos, depth, nodes, chess960))
    if not cases:
        sys.exit(f"no case for {variant}")
    out = [
        f'# Fairy-Stockfish\'s perft suite (tests/perft.sh), every case for "{variant}".',
        f'definition = "{definition}"',
    ]
    n = 0
    for pos, depth, nodes, chess960 in cases:
        out.append("")
        out.append("[[case]]")
        if pos == "startpos":
            out.append('name = "start"')
        else:
            n += 1
            fen = re.sub(r"^fen ", "", pos)
            # A Chess960 case: castling from wherever king and rook stand.
            suffix = ", Chess960" if chess960 else ""
            out.append(f'name = "fen {n}{suffix}"')
            out.append(f'fen = "{fen}"')
        out.append(f"depth = {depth}")
        out.append(f"nodes = {nodes}")
        if nodes > BUDGET:
            out.append("deep = true")
    with open(f"tests/perft/library/{variant}.toml", "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
