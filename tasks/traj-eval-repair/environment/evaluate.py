#!/usr/bin/env python3
"""Evaluates a trajectory benchmark and writes its results table.

usage: python3 /app/evaluate.py BENCH_DIR OUT_DIR

TODO: the audit of the published table (audit.csv) was never ported from the old scripts.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from trajkit.align import umeyama  # noqa: E402
from trajkit.associate import associate  # noqa: E402
from trajkit.metrics import ate, rpe  # noqa: E402
from trajkit.trajio import read_trajectory  # noqa: E402

# Sensors whose trajectories have no metric scale.
SIM3_SENSORS = ("mono",)


def fmt(x):
    return "" if x is None else repr(float(x))


def evaluate_run(bench_dir, bench, run):
    system = bench["systems"][run["system"]]
    seq = bench["sequences"][run["sequence"]]
    offset = system.get("clock_offset_s", 0.0)
    gt = read_trajectory(os.path.join(bench_dir, seq["groundtruth"]))
    est = read_trajectory(os.path.join(bench_dir, run["file"]))
    assoc = bench["association"]
    pairs = associate([p[0] for p in est], [p[0] for p in gt], assoc["tolerance_s"], offset)
    with_scale = system["sensor"] in SIM3_SENSORS
    e_pos = [est[i][1] for i, _ in pairs]
    g_pos = [gt[j][1] for _, j in pairs]
    s, r, t = umeyama(e_pos, g_pos, with_scale)
    ate_rmse, _ = ate(e_pos, g_pos, s, r, t)
    cfg = bench["rpe"]
    rp = rpe([gt[j][0] for _, j in pairs], [(est[i][1], est[i][2]) for i, _ in pairs],
             [(gt[j][1], gt[j][2]) for _, j in pairs], s, cfg["delta_s"], cfg["tolerance_s"])
    return {
        "system": run["system"], "sequence": run["sequence"], "sensor": system["sensor"],
        "alignment": "sim3" if with_scale else "se3", "pairs": len(pairs), "scale": s,
        "ate_rmse": ate_rmse, "rpe_trans": rp[0] if rp else None, "rpe_rot": rp[1] if rp else None,
    }


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: evaluate.py BENCH_DIR OUT_DIR\n")
        return 2
    bench_dir, out_dir = argv[1], argv[2]
    with open(os.path.join(bench_dir, "benchmark.json")) as f:
        bench = json.load(f)
    results = [evaluate_run(bench_dir, bench, run) for run in bench["runs"]]
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "results.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["system", "sequence", "sensor", "alignment", "pairs", "scale",
                    "ate_rmse", "rpe_trans", "rpe_rot"])
        for r in results:
            w.writerow([r["system"], r["sequence"], r["sensor"], r["alignment"], r["pairs"],
                        fmt(r["scale"]), fmt(r["ate_rmse"]), fmt(r["rpe_trans"]), fmt(r["rpe_rot"])])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
