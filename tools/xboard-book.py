#!/usr/bin/env python3
"""An XBoard engine that plays a fixed opening, then hands the game to a real engine.

    tools/xboard-book.py MOVES-FILE -- ENGINE [ARG...]

MOVES-FILE holds moves in XBoard's own coordinates (`a3a4 j7i7 ...`, as in XBoard's debug
log), for both sides from the start. While the game has not left them, this side's moves
come from the file and the engine only hears them, in force mode; once they run out, the
engine is told `go` and plays on its own. Use it as both of XBoard's engines to bring a
game to a given position under XBoard's legality testing (XBoard cannot load a game of a
variant the engine defines, as it knows the board only after the engine's `setup`).
"""

import subprocess
import sys
import threading


def main() -> int:
    args = sys.argv[1:]
    if len(args) < 3 or args[1] != "--":
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        book = f.read().split()
    engine = subprocess.Popen(args[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    out_lock = threading.Lock()

    def say(line: str) -> None:
        with out_lock:
            sys.stdout.write(line + "\n")
            sys.stdout.flush()

    def tell(line: str) -> None:
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    ply = 0
    forced = False
    # The engine's own `move`s count once they are the game's: only after the book.
    booked = True

    def relay() -> None:
        nonlocal ply
        for line in engine.stdout:
            line = line.rstrip("\n")
            if line.startswith("move "):
                ply += 1
            say(line)

    threading.Thread(target=relay, daemon=True).start()

    def to_move() -> None:
        """The engine's side is to move: from the book, or the engine's own."""
        nonlocal ply, booked, forced
        if booked and ply < len(book):
            move = book[ply]
            tell("usermove " + move)
            ply += 1
            say("move " + move)
        else:
            booked = False
            forced = False
            tell("go")

    for line in sys.stdin:
        line = line.rstrip("\n")
        word = line.split(" ", 1)[0]
        if word == "new":
            ply, forced, booked = 0, False, True
            tell(line)
            tell("force")
        elif word == "force":
            forced = True
            tell(line)
        elif word == "go":
            forced = False
            if booked:
                to_move()
            else:
                tell(line)
        elif word == "usermove":
            ply += 1
            tell(line)
            if booked and not forced:
                to_move()
        elif word == "quit":
            tell(line)
            break
        else:
            tell(line)
    engine.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
