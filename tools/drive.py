#!/usr/bin/env python3
"""Drives `rulebook uci`, `rulebook xboard` and `rulebook play` with random command sequences,
as a careless GUI or user would, and reports every run that panicked, exited with an error,
or did not end within its time after `quit`.

Usage: tools/drive.py PROTOCOL COUNT [DEFINITION...] [--seed N] [--jobs N] [--binary PATH]

  PROTOCOL    uci, xboard or play
  COUNT       how many sequences to run, spread over the definitions
  DEFINITION  definition files (default: the shipped games in definitions/)

Each sequence mixes the protocol's commands, limits (depth, nodes, time), moves the engine
itself chose earlier in the run or that the start position allows, squares and words at
random, options, `ping`/`isready` while a search runs, and ends with `quit`. A sequence is a
finding when the process writes `panicked`, exits with a code other than 0 (play: 0 or 1),
or still runs 20 seconds after its input ended. Findings are written to
target/drive/PROTOCOL-N.txt (the input, then what the process wrote on standard error) so that
`rulebook PROTOCOL FILE < target/drive/...` replays them.

A measurement of robustness, not a test: CI runs the transcripts and the fuzz regressions.
"""
import argparse
import concurrent.futures
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORDS = ["", " ", "x", "0000", "@", "+", "=", "-", "a0", "z99", "P@e4", "e2e4", "e7e8q",
         "h8b2=", "h8b2+", "(Q)", "\t", "999999999999", "-1", "nan", "1/2-1/2"]


def legal_moves(binary, path):
    out = subprocess.run([binary, "moves", path], capture_output=True, text=True, timeout=60)
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip()]


def square(rng):
    return rng.choice("abcdefghijklmnop") + str(rng.randint(0, 17))


def some_move(rng, moves):
    r = rng.random()
    if moves and r < 0.7:
        return rng.choice(moves)
    if r < 0.9:
        return square(rng) + square(rng)
    return rng.choice(WORDS)


def limit(rng, protocol):
    if protocol == "uci":
        return rng.choice([f"depth {rng.randint(1, 3)}", f"nodes {rng.randint(1, 3000)}",
                           f"movetime {rng.randint(1, 200)}",
                           f"wtime {rng.randint(0, 3000)} btime {rng.randint(0, 3000)}",
                           f"wtime {rng.randint(1, 500)} winc {rng.randint(0, 100)} "
                           f"btime 500 binc 10 movestogo {rng.randint(0, 40)}",
                           "infinite", "perft 1", "perft 2", "mate 1", "depth -1", "depth x"])
    return rng.choice([f"sd {rng.randint(0, 3)}", f"st {rng.choice(['0', '0.05', '0.2', '1'])}",
                       f"level {rng.randint(0, 40)} {rng.randint(0, 2)} {rng.randint(0, 2)}",
                       f"level 0 0:{rng.randint(0, 5):02d} 0", f"time {rng.randint(0, 3000)}",
                       f"otim {rng.randint(0, 3000)}", "sd x", "st -1", "level"])


def uci_sequence(rng, moves):
    lines = ["uci"]
    played = []
    for _ in range(rng.randint(1, 14)):
        r = rng.random()
        if r < 0.1:
            lines += [f"go depth {rng.randint(1, 3)}", rng.choice(["isready", "stop", ""])]
        elif r < 0.25:
            if rng.random() < 0.8:
                played = [some_move(rng, moves) for _ in range(rng.randint(0, 3))]
            lines.append("position startpos" + (" moves " + " ".join(played) if played else ""))
        elif r < 0.5:
            lines.append("go " + limit(rng, "uci"))
            if "infinite" in lines[-1] or rng.random() < 0.3:
                lines.append(rng.choice(["isready", "stop", "ucinewgame", "stop"]))
        elif r < 0.6:
            lines.append(rng.choice(["isready", "ucinewgame", "stop", "ponderhit", "debug on"]))
        elif r < 0.7:
            lines.append(rng.choice(["setoption name Hash value " + str(rng.choice([1, 2, 0, -5])),
                                     "setoption name Engine value basic",
                                     "setoption name Engine value full",
                                     "setoption name UCI_Variant value nothing",
                                     "setoption name", "setoption name Nope value 3"]))
        elif r < 0.8:
            lines.append("position fen " + rng.choice(["8/8/8/8/8/8/8/8 w - - 0 1", "x", "",
                                                       "k7/8/8/8/8/8/8/7K b - - 0 1"]))
        else:
            lines.append(rng.choice(WORDS + ["go", "position", "position startpos moves"]))
    lines.append("stop")
    lines.append("quit")
    return lines


def xboard_sequence(rng, moves):
    lines = ["xboard", "protover 2"]
    for _ in range(rng.randint(1, 16)):
        r = rng.random()
        if r < 0.15:
            # A GUI asking for a move under a depth limit alone, then speaking while it thinks.
            lines += [f"sd {rng.randint(1, 3)}", "go",
                      rng.choice([f"ping {rng.randint(0, 9)}", "?", "force", "new", "",
                                  "usermove " + some_move(rng, moves)])]
            continue
        if r < 0.3:
            lines.append(rng.choice(["new", "force", "go", "playother", "white", "black"]))
        elif r < 0.45:
            lines.append(limit(rng, "xboard"))
        elif r < 0.6:
            lines.append(("usermove " if rng.random() < 0.8 else "") + some_move(rng, moves))
        elif r < 0.7:
            lines.append(rng.choice(["?", f"ping {rng.randint(0, 9)}", "undo", "remove",
                                     "post", "nopost", "hard", "easy", "computer", "draw"]))
        elif r < 0.78:
            lines.append("setboard " + rng.choice(["8/8/8/8/8/8/8/8 w - - 0 1", "x", "",
                                                   "k7/8/8/8/8/8/8/7K b - - 0 1"]))
        elif r < 0.84:
            lines.append(rng.choice(["variant nothing", "option Engine=basic",
                                     "option Engine=full", "option Nope=1", "result 1-0 {x}",
                                     "memory 1", "cores 1", "name x", "rating 1 2"]))
        else:
            lines.append(rng.choice(WORDS))
    if rng.random() < 0.5:
        lines.append(f"ping {rng.randint(0, 9)}")
    lines.append("quit")
    return lines


def play_sequence(rng, moves):
    lines = []
    for _ in range(rng.randint(1, 14)):
        r = rng.random()
        if r < 0.6:
            lines.append(some_move(rng, moves))
        elif r < 0.8:
            lines.append(rng.choice(["moves", "undo", "fen", "help", "undo", "undo"]))
        else:
            lines.append(rng.choice(WORDS))
    lines.append("quit")
    return lines


def run_one(args):
    binary, protocol, path, seed, moves = args
    rng = random.Random(seed)
    make = {"uci": uci_sequence, "xboard": xboard_sequence, "play": play_sequence}[protocol]
    lines = make(rng, moves)
    command = [binary, protocol, path]
    if protocol == "play":
        command += ["--computer", rng.choice(["first", "second", "none"]),
                    "--depth", str(rng.randint(1, 2))]
    text = "\n".join(lines) + "\n"
    try:
        p = subprocess.run(command, input=text, capture_output=True, text=True, timeout=20,
                           env=dict(os.environ, NO_COLOR="1"))
    except subprocess.TimeoutExpired:
        return (seed, path, command, text, "no end within 20 s")
    ok_codes = (0, 1) if protocol == "play" else (0,)
    if "panicked" in p.stderr or p.returncode not in ok_codes:
        return (seed, path, command, text, f"exit {p.returncode}\n{p.stderr[-2000:]}")
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("protocol", choices=["uci", "xboard", "play"])
    ap.add_argument("count", type=int)
    ap.add_argument("definitions", nargs="*")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--binary", default=os.path.join(ROOT, "target/release/rulebook"))
    a = ap.parse_args()
    paths = a.definitions or sorted(
        os.path.join(ROOT, "definitions", f) for f in os.listdir(os.path.join(ROOT, "definitions"))
        if f.endswith(".variant"))
    moves = {p: legal_moves(a.binary, p) for p in paths}
    out_dir = os.path.join(ROOT, "target/drive")
    os.makedirs(out_dir, exist_ok=True)
    jobs = [(a.binary, a.protocol, paths[i % len(paths)], a.seed * 1_000_003 + i,
             moves[paths[i % len(paths)]]) for i in range(a.count)]
    findings = 0
    done = 0
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for r in pool.map(run_one, jobs):
            done += 1
            if r is not None:
                seed, path, command, text, what = r
                findings += 1
                name = os.path.join(out_dir, f"{a.protocol}-{seed}.txt")
                with open(name, "w") as f:
                    f.write(f"# {' '.join(command)}\n{text}# ---\n{what}\n")
                print(f"finding: {os.path.basename(path)} seed {seed}: {what.splitlines()[0]}"
                      f" ({name})", flush=True)
            if done % 1000 == 0:
                print(f"{done} sequences, {findings} findings", file=sys.stderr, flush=True)
    print(f"{a.protocol}: {done} sequences on {len(paths)} definitions, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
