#!/usr/bin/env python3
"""Evaluates a trajectory benchmark: results table (ATE, RPE) and an audit of the published table.

usage: python3 /app/evaluate.py BENCH_DIR OUT_DIR
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from trajkit.align import umeyama  # noqa: E402
from trajkit.associate import associate  # noqa: E402
from trajkit.metrics import ate, path_length, rpe  # noqa: E402
from trajkit.trajio import read_trajectory  # noqa: E402

SIM3_SENSORS = ("monocular",)


def fmt(x):
    return "" if x is None else repr(float(x))


def evaluate_run(bench_dir, bench, run):
    system = bench["systems"][run["system"]]
    seq = bench["sequences"][run["sequence"]]
    offset = run.get("clock_offset_s", system.get("clock_offset_s", 0.0))
    gt = read_trajectory(os.path.join(bench_dir, seq["groundtruth"]))
    est = read_trajectory(os.path.join(bench_dir, run["file"]))
    assoc = bench["association"]
    pairs = associate([p[0] for p in est], [p[0] for p in gt], assoc["tolerance_s"], offset)
    with_scale = system["sensor"] in SIM3_SENSORS
    e_pos = [est[i][1] for i, _ in pairs]
    g_pos = [gt[j][1] for _, j in pairs]
    s, r, t = umeyama(e_pos, g_pos, with_scale)
    ate_rmse, errs = ate(e_pos, g_pos, s, r, t)
    cfg = bench["rpe"]
    rp = rpe([gt[j][0] for _, j in pairs], [(est[i][1], est[i][2]) for i, _ in pairs],
             [(gt[j][1], gt[j][2]) for _, j in pairs], s, cfg["delta_s"], cfg["tolerance_s"])
    # Health for the audit: gaps in the estimate (on the ground-truth clock) and drift.
    stamps = [p[0] + offset for p in est]
    gaps = [stamps[k + 1] - stamps[k] for k in range(len(stamps) - 1)]
    gaps.append(stamps[0] - gt[0][0])
    gaps.append(gt[-1][0] - stamps[-1])
    length = path_length(g_pos)
    drift = 100.0 * max(errs) / length if length > 0 else None
    return {
        "system": run["system"], "sequence": run["sequence"], "sensor": system["sensor"],
        "alignment": "sim3" if with_scale else "se3", "pairs": len(pairs), "scale": s,
        "ate_rmse": ate_rmse, "rpe_trans": rp[0] if rp else None, "rpe_rot": rp[1] if rp else None,
        "max_gap": max(gaps), "drift_pct": drift,
    }


def mismatch(published, reproduced, rtol):
    try:
        p = float(published)
    except (TypeError, ValueError):
        return True
    if reproduced is None:
        return True
    return abs(p - reproduced) > rtol * abs(reproduced)


def audit_rows(bench, results, published):
    cfg = bench["audit"]
    by_key = {(r["system"], r["sequence"]): r for r in results}
    rows = []
    for p in published:
        key = (p["system"].strip(), p["sequence"].strip())
        r = by_key.get(key)
        codes = []
        if r is None:
            codes.append("NO_RUN")
        else:
            if mismatch(p.get("ate_rmse"), r["ate_rmse"], cfg["rtol"]):
                codes.append("ATE_MISMATCH")
            if (mismatch(p.get("rpe_trans"), r["rpe_trans"], cfg["rtol"])
                    or mismatch(p.get("rpe_rot"), r["rpe_rot"], cfg["rtol"])):
                codes.append("RPE_MISMATCH")
            if r["max_gap"] > cfg["max_gap_s"]:
                codes.append("TRACKING_LOSS")
            if r["drift_pct"] is not None and r["drift_pct"] > cfg["drift_bound_pct"]:
                codes.append("DRIFT")
        rows.append((key[0], key[1], ";".join(sorted(codes))))
    return rows


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
    pub_path = os.path.join(bench_dir, "published.csv")
    published = []
    if os.path.exists(pub_path):
        with open(pub_path, newline="") as f:
            published = list(csv.DictReader(f))
    with open(os.path.join(out_dir, "audit.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["system", "sequence", "codes"])
        for row in audit_rows(bench, results, published):
            w.writerow(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
