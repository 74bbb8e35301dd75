#!/usr/bin/env python3
"""Plays two UCI engines against each other and reports the score and the Elo difference:
`tools/match.py VARIANT GAMES MOVETIME_MS 'ENGINE A' 'ENGINE B' [OPTION=VALUE for A...]`.

Each engine is a command line (`'target/release/rulebook uci definitions/chess.variant'`,
`'/usr/games/fairy-stockfish'`); `UCI_Variant` is set to VARIANT on both. Games come in pairs:
the same opening (four random plies, from a fixed seed) with colours swapped. Fairy-Stockfish's
Python binding (`pip install pyffish`) keeps the position and says when the game is over; a
game longer than 400 plies is a draw. Options after the engines are sent to engine A
(`Engine=basic`); options for B are written `B:NAME=VALUE`. A measurement, not a test: the
figures depend on the machine and its load."""
import math, random, subprocess, sys

import pyffish as sf


class Engine:
    def __init__(self, command, variant, options):
        self.p = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine ended")
            if line.startswith(prefix):
                return line.strip()

    def best(self, moves, movetime):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(f"go movetime {movetime}")
        return self.wait("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


def result(variant, start, moves):
    """1 (first side wins), 0 (second), 0.5 (draw) or None while the game goes on."""
    legal = sf.legal_moves(variant, start, moves)
    if not legal:
        r = sf.game_result(variant, start, moves)
    else:
        over, r = sf.is_optional_game_end(variant, start, moves)
        if not over:
            over, r = sf.is_immediate_game_end(variant, start, moves)
            if not over:
                return None
    # pyffish scores for the side to move.
    to_move_first = len(moves) % 2 == 0
    if r == 0:
        return 0.5
    won = r > 0
    return 1.0 if won == to_move_first else 0.0


def main():
    variant, games, movetime, cmd_a, cmd_b = sys.argv[1:6]
    games, movetime = int(games), int(movetime)
    opts_a, opts_b = [], []
    for o in sys.argv[6:]:
        target = opts_b if o.startswith("B:") else opts_a
        name, value = o.removeprefix("B:").split("=", 1)
        target.append((name, value))
    a = Engine(cmd_a, variant, opts_a)
    b = Engine(cmd_b, variant, opts_b)
    start = sf.start_fen(variant)
    rng = random.Random(7)
    score = 0.0
    wins = draws = losses = 0
    for g in range(games):
        if g % 2 == 0:
            opening = []
            for _ in range(4):
                opening.append(rng.choice(sorted(sf.legal_moves(variant, start, opening))))
        a_first = g % 2 == 0
        moves = list(opening)
        for e in (a, b):
            e.send("ucinewgame")
        r = None
        while r is None and len(moves) < 400:
            first_to_move = len(moves) % 2 == 0
            engine = a if first_to_move == a_first else b
            m = engine.best(moves, movetime)
            if m not in sf.legal_moves(variant, start, moves):
                # An illegal move loses.
                r = 0.0 if first_to_move else 1.0
                print(f"game {g + 1}: illegal {m} after {' '.join(moves)}", flush=True)
                break
            moves.append(m)
            r = result(variant, start, moves)
        if r is None:
            r = 0.5
        s = r if a_first else 1 - r
        score += s
        wins += s == 1
        draws += s == 0.5
        losses += s == 0
        print(f"game {g + 1}: {len(moves)} plies, A scores {s}", flush=True)
    a.quit()
    b.quit()
    p = score / games
    p_c = min(max(p, 0.5 / games), 1 - 0.5 / games)
    elo = -400 * math.log10(1 / p_c - 1)
    print(f"{variant}: A {score}/{games} (+{wins} ={draws} -{losses}), {100 * p:.1f}%, "
          f"Elo difference {elo:+.0f}")


if __name__ == "__main__":
    main()
