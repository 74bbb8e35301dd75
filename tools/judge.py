#!/usr/bin/env python3
"""Measures the quality of an engine's moves by Fairy-Stockfish's judgement, position by position:
a cheaper and steadier measure of a change to the search or the evaluation than whole games.

    tools/judge.py positions VARIANT COUNT OUT [SEED]
    tools/judge.py judge VARIANT POSITIONS 'ENGINE' LIMIT [DEPTH] [RESULT.json]
    tools/judge.py compare A.json B.json

`positions` writes COUNT positions (FEN, a line each) of a game Fairy-Stockfish knows (`chess`,
`xiangqi`, `shogi`): six random plies from SEED (default 5), then a random number of plies (6
to 70) of Fairy-Stockfish at 10 ms a move (timed moves: the same SEED gives other positions
at each run, so keep the file). `judge` asks the engine (a UCI command line, as for
`tools/match.py`) for its move in each position, with LIMIT either milliseconds (`200`) or,
for figures that do not depend on the machine's load, positions searched (`n100000`: `go nodes`,
the same moves at every run); Fairy-Stockfish then searches the position to DEPTH (default 13),
once for its own best move and once with `searchmoves` for the engine's, and the move's loss is
the difference, at most 400 centipawns (positions it scores as mate are left out). Its searches
are kept in `POSITIONS.cache-DEPTH.json`, so a second engine costs only the moves the first did
not play. RESULT.json keeps each position's loss, for `compare`, which reports the mean of the
paired differences.

What it can tell apart, measured on 597 chess positions at `n100000`: the engine given a
quarter of the positions (n25000), which loses games clearly, loses 8 to 12 centipawns a move
more; but changes that should make no difference (a larger hash table) moved the mean by up to
4, since a small change alters the tree and so the moves chosen at random positions. Differences
under about 8 centipawns say nothing. Fairy-Stockfish is the judge, so moves its own evaluation
prefers score better: a measure of agreement with a strong engine, not of strength itself."""
import json, os, random, sys

FAIRY = os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish")
CAP = 400


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import match  # noqa: E402 (its UCI engine driver)


def engine(command, variant):
    return match.Engine(command, variant, [])


def mean_and_error(values):
    n = len(values)
    mean = sum(values) / n
    sd = (sum((x - mean) ** 2 for x in values) / (n - 1)) ** 0.5
    return mean, sd / n ** 0.5


def score(info):
    words = info.split()
    i = words.index("score")
    if words[i + 1] == "cp":
        return int(words[i + 2])
    mate = int(words[i + 2])
    return 10000 - abs(mate) if mate > 0 else -(10000 - abs(mate))


def positions(variant, count, out, seed):
    import pyffish
    rng = random.Random(seed)
    fs = engine(FAIRY, variant)
    start = pyffish.start_fen(variant)
    fens = []
    while len(fens) < count:
        moves = []
        for _ in range(6 + rng.randint(6, 70)):
            legal = pyffish.legal_moves(variant, start, moves)
            if not legal:
                break
            if len(moves) < 6:
                moves.append(rng.choice(legal))
            else:
                fs.send("position startpos moves " + " ".join(moves))
                fs.send("go movetime 10")
                moves.append(fs.wait("bestmove").split()[1])
        else:
            if pyffish.legal_moves(variant, start, moves):
                fens.append(pyffish.get_fen(variant, start, moves))
    fs.quit()
    with open(out, "w") as f:
        f.write("\n".join(fens) + "\n")


def judge(variant, fens, command, limit, depth, result):
    go = f"go nodes {limit[1:]}" if limit.startswith("n") else f"go movetime {int(limit)}"
    cache_file = f"{fens}.cache-{depth}.json"
    cache = json.load(open(cache_file)) if os.path.exists(cache_file) else {}
    fs = engine(FAIRY, variant)
    # A definition file names the game for the engine itself.
    player = engine(command, None if ".variant" in command else variant)

    def fs_search(fen, move=""):
        key = f"{fen}|{move}"
        if key not in cache:
            fs.send("ucinewgame")
            fs.send(f"position fen {fen}")
            fs.send(f"go depth {depth}" + (f" searchmoves {move}" if move else ""))
            best = fs.wait("bestmove").split()[1]
            cache[key] = [best, score(fs.scored)]
        return cache[key]

    losses = {}
    for fen in filter(None, open(fens).read().split("\n")):
        best, best_score = fs_search(fen)
        if abs(best_score) > 5000:
            continue
        player.send(f"position fen {fen}")
        player.send(go)
        move = player.wait("bestmove").split()[1]
        loss = 0 if move == best else best_score - fs_search(fen, move)[1]
        losses[fen] = min(CAP, max(0, loss))
    with open(cache_file, "w") as f:
        json.dump(cache, f)
    fs.quit()
    player.quit()
    if result:
        with open(result, "w") as f:
            json.dump(losses, f)
    values = list(losses.values())
    n = len(values)
    mean, error = mean_and_error(values)
    print(f"{variant}, {command.split()[0]} at {limit}: {n} positions, mean loss {mean:.1f} cp "
          f"(standard error {error:.1f}), Fairy-Stockfish's move in "
          f"{sum(1 for x in values if x == 0) / n:.0%}, a loss of 100 or more in "
          f"{sum(1 for x in values if x >= 100)}")


def compare(a_file, b_file):
    a, b = json.load(open(a_file)), json.load(open(b_file))
    both = [k for k in a if k in b]
    d = [b[k] - a[k] for k in both]
    n = len(d)
    mean, error = mean_and_error(d)
    print(f"{b_file} less {a_file}: {n} positions, {mean:+.1f} cp a move "
          f"(standard error {error:.1f}); {sum(a[k] for k in both) / n:.1f} "
          f"against {sum(b[k] for k in both) / n:.1f}")


def main(args):
    if len(args) >= 4 and args[0] == "positions":
        positions(args[1], int(args[2]), args[3], int(args[4]) if len(args) > 4 else 5)
    elif len(args) >= 5 and args[0] == "judge":
        depth = int(args[5]) if len(args) > 5 else 13
        judge(args[1], args[2], args[3], args[4], depth, args[6] if len(args) > 6 else None)
    elif len(args) == 3 and args[0] == "compare":
        compare(args[1], args[2])
    else:
        sys.exit(__doc__.split("\n\n")[1])


if __name__ == "__main__":
    main(sys.argv[1:])
