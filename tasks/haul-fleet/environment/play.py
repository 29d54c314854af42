#!/usr/bin/env python3
"""Play one haul episode against a bot program and print the result as JSON.

  python3 /app/play.py --mode plain|fleet|market|closures --seed N [--log FILE] [--show] -- python3 /app/bot.py
"""
import argparse, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from haul import referee, world  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("--mode", default="plain", choices=list(world.MODES))
ap.add_argument("--seed", default="1")
ap.add_argument("--log", help="write the whole transcript (< engine, > bot) to this file")
ap.add_argument("--show", action="store_true", help="print the map and exit")
ap.add_argument("cmd", nargs=argparse.REMAINDER)
a = ap.parse_args()
if a.show:
    w = world.generate(a.mode, a.seed)
    print("\n".join(w["rows"]))
    print(json.dumps({k: v for k, v in w.items() if k != "rows"}, indent=1))
    sys.exit(0)
cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
log = open(a.log, "w") if a.log else None
print(json.dumps(referee.run_episode(a.mode, a.seed, cmd or ["python3", "/app/bot.py"], log=log)))
