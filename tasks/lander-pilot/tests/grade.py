"""Plays seeded hidden episodes of the grader's own copy of the simulator with /app/pilot.py."""
import json, os, sys
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, sealed_argv, generate
import lander

g = Grader()
# The pilot runs sealed: no /tests (the simulator and its seeds), no seed, no reward files.
CMD = sealed_argv(["python3", os.path.join(WORK, "pilot.py")])


def episodes(mode, n):
    def fn():
        recs = []
        for i in range(n):
            seed = "h%d-%d" % (SEED, i)
            p, s, wind, noise, _ = generate(lander.params, mode, seed)
            g.digest(json.dumps([mode, p, s, wind, noise], sort_keys=True))
            recs.append(lander.run_episode(mode, seed, CMD, timeout=15.0))
        return sum(r["score"] for r in recs) / n, json.dumps([{"score": r["score"], "outcome": r["outcome"]} for r in recs])
    return fn


def public():
    recs = [lander.run_episode("plain", s, CMD, timeout=15.0) for s in (1, 2)]
    return float(all(r["score"] == 1.0 for r in recs)), "practice seeds 1, 2: %s" % [r["outcome"] for r in recs]


g.check("public_practice", public)
g.check("hidden_plain", episodes("plain", 4))
g.check("hidden_wind", episodes("wind", 5))
g.check("hidden_noisy_sensors", episodes("noise", 5))
g.check("hidden_low_fuel", episodes("lowfuel", 4))
g.finish()
