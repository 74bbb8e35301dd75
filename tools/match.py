#!/usr/bin/env python3
"""Plays two UCI engines against each other and reports the score and the Elo difference:
`tools/match.py VARIANT GAMES MOVETIME_MS 'ENGINE A' 'ENGINE B' [OPTION=VALUE for A...]`.

Each engine is a command line (`'target/release/rulebook uci definitions/chess.variant'`,
`'/usr/games/fairy-stockfish'`). MOVETIME_MS is the time per move of both engines, or
`A_MS/B_MS` to give each its own (`1000/100`: A thinks ten times as long as B). Games come in
pairs: the same opening (four random plies, from a fixed seed: 7, or `MATCH_SEED` if set)
with colours swapped; a game longer than 400 plies is a draw. With `MATCH_MOVES=FILE`, each
game's moves are written to FILE, a line per game (`game N A-SCORE: moves...`). Options after the engines are sent to engine A
(`Engine=basic`); options for B are written `B:NAME=VALUE`.

VARIANT is either a game Fairy-Stockfish knows (`chess`, `xiangqi`, `shogi`): `UCI_Variant`
is set to it on both engines and its Python binding (`pip install pyffish`) keeps the
position and says when the game is over; or a definition file (`definitions/gi-qi-game.variant`,
for games only Rulebook plays): then `RULEBOOK` (default `target/release/rulebook`) referees,
`rulebook moves` giving the legal moves and `rulebook replay` the result. A measurement, not
a test: the figures depend on the machine and its load."""
import math, os, random, re, subprocess, sys


class Engine:
    def __init__(self, command, variant, options):
        self.p = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        if variant is not None:
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
            # The last score given, for scripts that read it after `bestmove`.
            if " score " in line:
                self.scored = line
            if line.startswith(prefix):
                return line.strip()

    def best(self, moves, movetime):
        self.send("position startpos moves " + " ".join(moves) if moves else "position startpos")
        self.send(f"go movetime {movetime}")
        return self.wait("bestmove").split()[1]

    def quit(self):
        self.send("quit")
        self.p.wait()


class Pyffish:
    """Fairy-Stockfish's rules, for the games it knows."""

    def __init__(self, variant):
        import pyffish
        self.sf = pyffish
        self.variant = variant
        self.start = pyffish.start_fen(variant)

    def legal(self, moves):
        return self.sf.legal_moves(self.variant, self.start, moves)

    def result(self, moves):
        """1 (first side wins), 0 (second), 0.5 (draw) or None while the game goes on."""
        sf, variant, start = self.sf, self.variant, self.start
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


class Rulebook:
    """A definition's own rules, read by Rulebook's command line."""

    def __init__(self, path):
        self.binary = os.environ.get("RULEBOOK", "target/release/rulebook")
        self.path = path
        self.first = re.search(r"goes on, (\S+) to move", self.replay([])).group(1)

    def run(self, *args, stdin=""):
        return subprocess.run([self.binary, *args], input=stdin, capture_output=True,
                              text=True, check=True).stdout

    def replay(self, moves):
        return self.run("replay", self.path, "-", stdin=" ".join(moves)).strip().splitlines()[-1]

    def legal(self, moves):
        args = ["moves", self.path] + (["--moves", " ".join(moves)] if moves else [])
        return self.run(*args).split()

    def result(self, moves):
        line = self.replay(moves)
        if "goes on" in line:
            return None
        won = re.search(r"(\S+) wins", line)
        lost = re.search(r"(\S+) loses", line)
        if won:
            return 1.0 if won.group(1) == self.first else 0.0
        if lost:
            return 0.0 if lost.group(1) == self.first else 1.0
        return 0.5


def main():
    variant, games, movetime, cmd_a, cmd_b = sys.argv[1:6]
    games = int(games)
    time_a, _, time_b = movetime.partition("/")
    time_a = int(time_a)
    time_b = int(time_b) if time_b else time_a
    opts_a, opts_b = [], []
    for o in sys.argv[6:]:
        target = opts_b if o.startswith("B:") else opts_a
        name, value = o.removeprefix("B:").split("=", 1)
        target.append((name, value))
    referee = Rulebook(variant) if variant.endswith(".variant") else Pyffish(variant)
    uci_variant = None if variant.endswith(".variant") else variant
    a = Engine(cmd_a, uci_variant, opts_a)
    b = Engine(cmd_b, uci_variant, opts_b)
    rng = random.Random(int(os.environ.get("MATCH_SEED", "7")))
    log = open(os.environ["MATCH_MOVES"], "w") if os.environ.get("MATCH_MOVES") else None
    score = 0.0
    wins = draws = losses = 0
    for g in range(games):
        if g % 2 == 0:
            opening = []
            for _ in range(4):
                opening.append(rng.choice(sorted(referee.legal(opening))))
        a_first = g % 2 == 0
        moves = list(opening)
        for e in (a, b):
            e.send("ucinewgame")
        r = None
        while r is None and len(moves) < 400:
            first_to_move = len(moves) % 2 == 0
            engine = a if first_to_move == a_first else b
            m = engine.best(moves, time_a if engine is a else time_b)
            if m not in referee.legal(moves):
                # An illegal move loses.
                r = 0.0 if first_to_move else 1.0
                print(f"game {g + 1}: illegal {m} after {' '.join(moves)}", flush=True)
                break
            moves.append(m)
            r = referee.result(moves)
        if r is None:
            r = 0.5
        s = r if a_first else 1 - r
        score += s
        wins += s == 1
        draws += s == 0.5
        losses += s == 0
        print(f"game {g + 1}: {len(moves)} plies, A scores {s}", flush=True)
        if log:
            print(f"game {g + 1} {s}: {' '.join(moves)}", file=log, flush=True)
    a.quit()
    b.quit()
    p = score / games
    p_c = min(max(p, 0.5 / games), 1 - 0.5 / games)
    elo = -400 * math.log10(1 / p_c - 1)
    print(f"{variant} at {time_a}/{time_b} ms: A {score}/{games} (+{wins} ={draws} -{losses}), {100 * p:.1f}%, "
          f"Elo difference {elo:+.0f}")


if __name__ == "__main__":
    main()
