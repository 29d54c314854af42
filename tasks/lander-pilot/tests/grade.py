"""Plays seeded hidden episodes of the grader's own copy of the simulator with /app/pilot.py, and
checks `pilot.py audit` on flight logs whose causes are planted by construction (flightlog.py), on
the public example and on the grader's own copy of the shipped logs."""
import csv
import json
import os
import shutil
import sys
import tempfile

sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run, sealed_argv  # noqa: E402
import flightlog  # noqa: E402
import lander  # noqa: E402

g = Grader()
# The pilot runs sealed: no /tests (the simulator and its seeds), no seed, no reward files.
CMD = sealed_argv(["python3", os.path.join(WORK, "pilot.py")])
TOOL = os.path.join(WORK, "pilot.py")
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="hidden-")


def first_obs_drops(mode, seed):
    """Whether the simulator's first observation of this episode has a dropout (its own draws)."""
    _, _, _, noise, rng = lander.params(mode, seed)
    for sd in (noise["pos"], noise["pos"], noise["vel"], noise["vel"]):
        if sd:
            rng.gauss(0, sd)
    drops = [rng.random() < noise["drop"] for _ in range(4)]
    return any(drops)


def group(mode, seed):
    if mode == "wind":
        return lander.params(mode, seed)[2]["base"] > 0
    if mode == "noise":
        return first_obs_drops(mode, seed)
    return None


# Episodes per mode, by group: wind both ways; noise with and without a dropout in the first fix.
QUOTAS = {"plain": {None: 3}, "wind": {True: 3, False: 3}, "noise": {True: 3, False: 2}, "lowfuel": {None: 3}}


def pick_seeds(mode):
    left, seeds, i = dict(QUOTAS[mode]), [], 0
    while any(left.values()):
        seed = "h%d-%d" % (SEED, i)
        i += 1
        k = group(mode, seed)
        if left.get(k, 0) > 0:
            left[k] -= 1
            seeds.append(seed)
    return seeds


SEEDS = {}
for _mode in QUOTAS:
    SEEDS[_mode] = generate(pick_seeds, _mode)
    for _seed in SEEDS[_mode]:
        p, s, wind, noise, _ = generate(lander.params, _mode, _seed)
        g.digest(json.dumps([_mode, p, s, wind, noise], sort_keys=True))


def episodes(mode):
    def fn():
        recs = [lander.run_episode(mode, seed, CMD, timeout=15.0) for seed in SEEDS[mode]]
        return sum(r["score"] for r in recs) / len(recs), json.dumps([{"score": r["score"], "outcome": r["outcome"]} for r in recs])
    return fn


def public():
    recs = [lander.run_episode("plain", s, CMD, timeout=15.0) for s in (1, 2)]
    return float(all(r["score"] == 1.0 for r in recs)), "practice seeds 1, 2: %s" % [r["outcome"] for r in recs]


# ---- audit -------------------------------------------------------------------------------------

def read_rows(path):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            return {((r.get("flight") or "").strip(), (r.get("cause") or "").strip(), (r.get("step") or "").strip())
                    for r in csv.DictReader(f)}
    except Exception:
        return set()


def audit_folder(tag, d, want):
    """1 when every row is right; otherwise half the share of rows right (extra rows count against)."""
    out = os.path.join(TMP, tag + "-audit.csv")
    code, _, err = run(["python3", TOOL, "audit", d, out], timeout=20)
    got = read_rows(out)
    share = len(want & got) / max(len(want), len(got), 1)
    s = 1.0 if got == want else 0.5 * share
    wrong = sorted(want - got)[:3]
    return s, "%s: %d/%d rows right%s%s" % (tag, len(want & got), len(want), (" (missed %s)" % wrong) if wrong else "",
                                           (" exit %s %s" % (code, err.strip()[-120:])) if code else "")


def write_folder(d, files):
    os.makedirs(d, exist_ok=True)
    for name, data in sorted(files.items()):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
        g.digest(name.encode() + data)


def prepare_audit(n):
    rng = __import__("random").Random("%d@flightlogs" % SEED)
    out = []
    for i in range(n):
        files, want = generate(flightlog.build, rng)
        d = os.path.join(TMP, "logs%d" % i)
        write_folder(d, files)
        out.append(("logs%d" % i, d, want))
    return out


def stage(name):
    """The grader's own copy of a public or shipped logs folder and its answers."""
    src = os.path.join(HERE, name)
    dst = os.path.join(TMP, name.replace("/", "-"))
    shutil.copytree(os.path.join(src, "logs"), dst)
    return dst, read_rows(os.path.join(src, "expected-audit.csv"))


AUDIT = prepare_audit(3)


def hidden_audit():
    res = [audit_folder(tag, d, want) for tag, d, want in AUDIT]
    return sum(r[0] for r in res) / len(res), "; ".join(r[1] for r in res)


def public_audit():
    d, want = stage("examples/audit")
    s, msg = audit_folder("example", d, want)
    return float(s == 1.0), msg


def shipped_logs():
    d, want = stage("shipped")
    return audit_folder("shipped", d, want)


g.check("public_practice", public)
g.check("hidden_plain", episodes("plain"))
g.check("hidden_wind", episodes("wind"))
g.check("hidden_noisy_sensors", episodes("noise"))
g.check("hidden_low_fuel", episodes("lowfuel"))
g.check("public_audit_example", public_audit)
g.check("hidden_audit", hidden_audit)
g.check("shipped_logs", shipped_logs)
shutil.rmtree(TMP, ignore_errors=True)
g.finish()
