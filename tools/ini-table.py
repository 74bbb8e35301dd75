#!/usr/bin/env python3
"""Writes the Markdown table of `docs/library.md` for an INI file from the output of
`tools/compare-ini.py` (saved to a file) and the importer's JSON report:
`tools/ini-table.py COMPARE_OUTPUT REPORT_JSON`."""
import json, re, sys

compare, report = sys.argv[1], sys.argv[2]
rows = {}
for line in open(compare):
    m = re.match(r"^(\S+)\s+(\d+x\d+)\s+(imported|approximated)\s+(.*?)\s{2,}(\d+)\s+(agree|DIFFERENT.*)$", line)
    if m:
        rows[m.group(1)] = (m.group(2), m.group(4).strip(), m.group(5), m.group(6))
out = ["| section | template | outcome | board | perft 1..3 from the start | positions | pyffish |",
       "|---|---|---|---|---|---|---|"]
for s in json.load(open(report))["sections"]:
    name, template = s["section"], s.get("template") or ""
    if s["outcome"] in ("imported", "approximated"):
        board, perft, positions, result = rows.get(name, ("", "", "", "not compared"))
        outcome = "imported" if s["outcome"] == "imported" else \
            "approximated: " + "; ".join(a.split(":")[0] for a in s["approximations"])
        result = "agree" if result == "agree" else result
        out.append(f"| `{name}` | {template} | {outcome} | {board} | {perft.replace(' ', ', ')} | {positions} | {result} |")
    else:
        why = "; ".join(f"`{r['key']}`: {r['reason']}" for r in s.get("reasons", [])) or s.get("reason", "")
        out.append(f"| `{name}` | {template} | refused: {why} | | | | |")
print("\n".join(out))
