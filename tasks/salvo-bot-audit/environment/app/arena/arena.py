#!/usr/bin/env python3
"""Plays one practice match and scores it the way the grader does.

  python3 arena.py --mode classic|salvo|cramped --seed S [--games 4] -- python3 /app/salvo.py play

The bot command gets the match's rules file appended as its last argument."""
import argparse, json, os, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import referee, yardstick  # noqa: E402

FULL, ZERO = 1.25, 1.55   # 1 at <= 1.25 x the yardstick's turns, 0 at >= 1.55 x, linear between


def match_score(turns, ref):
    if turns is None:
        return 0.0
    ratio = sum(turns) / ref
    return max(0.0, min(1.0, (ZERO - ratio) / (ZERO - FULL)))


def play(mode, seed, cmd, scratch, games=4):
    r, _, fleets, _ = referee.setup(mode, seed, games)
    ref = yardstick.reference_match(r, fleets)
    res = referee.run_match(mode, seed, lambda path: list(cmd) + [path], scratch, games)
    return dict(score=match_score(res["turns"], ref), turns=res["turns"], yardstick=ref, outcome=res["outcome"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="classic", choices=sorted(referee.FLEETS))
    ap.add_argument("--seed", default="1")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    print(json.dumps(play(a.mode, a.seed, cmd or ["python3", "/app/salvo.py", "play"], tempfile.mkdtemp(), a.games)))
