#!/usr/bin/env python3
"""Runs one worked example of each game's rules (tests/cases/<game>.json: the first case with moves
and an expected position) through a built `stoneyard referee`, for `make dist-test`: the packaged
executable, started from a folder of its own, must still play the rules exactly.

    python3 scripts/dist/referee-check.py COMMAND...    (e.g. /tmp/x/stoneyard, or wine64 stoneyard.exe)
"""
import json
import pathlib
import subprocess
import sys

CASES = pathlib.Path(__file__).resolve().parent.parent.parent / "tests" / "cases"


def pick(cases):
    for case in cases:
        expect = case.get("expect", {})
        if case.get("moves") and expect.get("ok") and "position" in expect and "legal_count" in expect:
            return case
    raise SystemExit("no case with moves, a position and a legal count")


def main():
    command = sys.argv[1:]
    if not command:
        raise SystemExit(__doc__)
    for file in sorted(CASES.glob("*.json")):
        book = json.loads(file.read_text())
        case = pick(book["cases"])
        args = command + ["referee", "--game", book["game"], "--legal", "--moves", ";".join(case["moves"])]
        for key, value in (case.get("options") or {}).items():
            args += ["--option", f"{key}={value}"]
        if case.get("position"):
            args += ["--position", case["position"]]
        run = subprocess.run(args, capture_output=True, text=True, timeout=300)
        # Wine may print its own notes first: the answer is the last line that is a JSON object.
        lines = [l for l in run.stdout.splitlines() if l.startswith("{")]
        if run.returncode != 0 or not lines:
            raise SystemExit(f"{book['game']} {case['id']}: exit {run.returncode}\n{run.stdout}\n{run.stderr}")
        answer = json.loads(lines[-1])
        expect = case["expect"]
        for key in ("position", "legal_count", "to_move", "status"):
            if key in expect and answer.get(key) != expect[key]:
                raise SystemExit(f"{book['game']} {case['id']}: {key} is {answer.get(key)!r}, the rules say {expect[key]!r}")
        print(f"referee: {book['game']} {case['id']} ({len(case['moves'])} moves): position and {expect['legal_count']} legal moves as the rules say")


main()
