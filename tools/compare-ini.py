#!/usr/bin/env python3
"""Compares the definitions `rulebook import fsf` writes from a Fairy-Stockfish INI file with
Fairy-Stockfish itself (the `pyffish` module, loaded with the same INI):
`tools/compare-ini.py INI [SECTION...] [--games N] [--plies N] [--depth N] [--jobs N]`.

For each section the importer wrote (every section, or those named), it compares perft from
the start position at depths 1 to 3 (2 on boards of more than 100 squares, none deeper than a
depth past 200,000 leaves), Rulebook's
`perft` against Fairy-Stockfish's legal moves counted by recursion, and then plays random
games (10 of 60 plies by default), comparing the legal moves at every ply as
`tools/compare-pyffish.py` does (whose functions it uses): both programs list the moves of
Fairy-Stockfish's own FEN, and Rulebook's FEN of the position must read back as the same
position. It prints a table, one row per section, and exits non-zero on any difference.

Fairy-Stockfish's variants are process-wide, so each job loads the INI once in its own
process. Needs `pip install pyffish` and a release build (`cargo build --release`)."""
import importlib.util, json, multiprocessing, os, random, re, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.environ.get("RULEBOOK_BIN") or os.path.join(ROOT, "target", "release", "rulebook")

_spec = importlib.util.spec_from_file_location(
    "compare_pyffish", os.path.join(ROOT, "tools", "compare-pyffish.py"))
cp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cp)

# The most leaves counted by recursion in Python before the next depth is skipped.
NODE_BUDGET = 200_000

_sf = None
_ini_text = None


def sf():
    """pyffish, loaded with the INI (once per process)."""
    global _sf
    if _sf is None:
        import pyffish
        pyffish.load_variant_config(_ini_text)
        _sf = pyffish
    return _sf


def their_perft(name, fen, depth):
    moves = sf().legal_moves(name, fen, [])
    if depth == 1:
        return len(moves)
    return sum(their_perft(name, sf().get_fen(name, fen, [m]), depth - 1) for m in moves)


def our_perft(definition, depth):
    out = subprocess.run([BIN, "perft", definition, str(depth)], capture_output=True, text=True)
    m = re.search(r"Nodes searched: (\d+)", out.stdout)
    if not m:
        raise RuntimeError(out.stderr.strip() or out.stdout.strip())
    return int(m.group(1))


def board_size(definition):
    m = re.search(r"^board (\d+) x (\d+)", open(definition).read(), re.M)
    return (int(m.group(1)), int(m.group(2))) if m else (8, 8)


def compare(job):
    """One section: perft and random games. Returns a result row."""
    name, definition, games, plies, max_depth = job
    row = {"section": name, "perft": [], "positions": 0, "problem": None}
    try:
        files, ranks = board_size(definition)
        row["board"] = f"{files}x{ranks}"
        depth = min(max_depth, 2 if files * ranks > 100 else 3)
        start = sf().start_fen(name)
        for d in range(1, depth + 1):
            ours, theirs = our_perft(definition, d), their_perft(name, start, d)
            row["perft"].append((d, ours, theirs))
            if ours != theirs:
                row["problem"] = f"perft {d}: Rulebook {ours}, Fairy-Stockfish {theirs}"
                return row
            # Counting by recursion in Python: no deeper once a depth passes the budget
            # (Cetus has 238,034 leaves at depth 2).
            if theirs > NODE_BUDGET:
                break
        rng = random.Random(hash(name) & 0xffff)
        leave_walls = re.search(r"^\s*moves leave walls", open(definition).read(), re.M)
        for _ in range(games):
            fen = sf().get_fen(name, start, [])
            for _ in range(plies):
                given = sf().legal_moves(name, fen, [])
                theirs = sorted(cp.plain(m, leave_walls) for m in given)
                ours = sorted(m["coord"] for m in cp.rulebook(definition, fen))
                ours, theirs = cp.castlings_matched(sf(), name, definition, fen, ours, theirs)
                row["positions"] += 1
                written = cp.rulebook_fen(definition, fen)
                back = sf().get_fen(name, written, [])
                if not cp.same_position(sf(), name, back, fen):
                    row["problem"] = f"FEN {fen} is written back as {written}, read as {back}"
                    return row
                if ours != theirs:
                    row["problem"] = (f"{fen}: only Rulebook {sorted(set(ours) - set(theirs))}, "
                                      f"only Fairy-Stockfish {sorted(set(theirs) - set(ours))}")
                    return row
                if not given:
                    break
                fen = sf().get_fen(name, fen, [rng.choice(given)])
    except Exception as e:  # a crash is a difference too
        row["problem"] = f"{type(e).__name__}: {e}"
    return row


def init(text):
    global _ini_text
    _ini_text = text


def main():
    args = sys.argv[1:]
    opts = {"--games": 10, "--plies": 60, "--depth": 3, "--jobs": 2}
    rest = []
    i = 0
    while i < len(args):
        if args[i] in opts:
            opts[args[i]] = int(args[i + 1])
            i += 2
        else:
            rest.append(args[i])
            i += 1
    if not rest:
        sys.exit(__doc__)
    ini, wanted = rest[0], rest[1:]
    text = open(ini).read()
    out = tempfile.mkdtemp(prefix="compare-ini-")
    cmd = [BIN, "import", "fsf", ini, "--out", out, "--format", "json"]
    for w in wanted:
        cmd += ["--variant", w]
    run = subprocess.run(cmd, capture_output=True, text=True)
    report = json.loads(run.stdout)
    jobs = [(s["section"], s["file"], opts["--games"], opts["--plies"], opts["--depth"])
            for s in report["sections"] if s["outcome"] in ("imported", "approximated")]
    with multiprocessing.Pool(opts["--jobs"], initializer=init, initargs=(text,)) as pool:
        rows = pool.map(compare, jobs, chunksize=1)
    outcome = {s["section"]: s["outcome"] for s in report["sections"]}
    print(f"{'section':24} {'board':6} {'import':12} {'perft 1..3':32} {'positions':>9}  result")
    failures = 0
    for r in rows:
        perft = " ".join(str(o) for _, o, _ in r["perft"])
        result = "agree" if not r["problem"] else "DIFFERENT: " + r["problem"]
        failures += bool(r["problem"])
        print(f"{r['section']:24} {r.get('board', '?'):6} {outcome[r['section']]:12} "
              f"{perft:32} {r['positions']:>9}  {result}")
    refused = [s for s in report["sections"] if s["outcome"] not in ("imported", "approximated")]
    for s in refused:
        why = "; ".join(f"{x['key']}: {x['reason']}" for x in s.get("reasons", [])) or s.get("reason", "")
        print(f"{s['section']:24} {'':6} {s['outcome']:12} {why}")
    print(f"{len(rows)} compared, {len(rows) - failures} agree, {failures} differ; "
          f"{len(refused)} not imported")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
