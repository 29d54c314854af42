"""Batch driver: python3 /app/runbatch.py BATCH_DIR OUT_DIR

Reads BATCH_DIR/method.json and every spectrum under BATCH_DIR/spectra, writes OUT_DIR/peaks.csv
and OUT_DIR/report.csv, and OUT_DIR/audit.csv when BATCH_DIR/previous_report.csv exists.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from specfit.baseline import remove_baseline, window_mask  # noqa: E402
from specfit.peaks import area, fit_peak  # noqa: E402
from specfit.quant import calibration_line, quantify  # noqa: E402
from specfit.readers import read_spectrum  # noqa: E402


def g6(v):
    return "%.6g" % v


def median(values):
    """statistics.median (the same arithmetic), without importing statistics on every run: it
    pulls in fractions, decimal and random, a few ms of a run that is mostly start-up."""
    s = sorted(values)
    n = len(s)
    if n == 0:
        raise ValueError("no median for empty data")
    if n % 2 == 1:
        return s[n // 2]
    return (s[n // 2 - 1] + s[n // 2]) / 2


def process(batch):
    with open(os.path.join(batch, "method.json")) as f:
        method = json.load(f)
    model = method["fit_model"]
    eta = float(method.get("eta", 0.5))
    half = float(method["window"])
    degree = int(method["baseline_degree"])
    istd = method["internal_standard"]
    peaks_def = [istd] + list(method["analytes"])
    folder = os.path.join(batch, "spectra")
    samples = []
    for name in sorted(os.listdir(folder)):
        if name.startswith("."):
            continue
        sp = read_spectrum(os.path.join(folder, name))
        corr, _ = remove_baseline(sp.x, sp.y, [float(p["position"]) for p in peaks_def], half, degree)
        fits = {}
        for p in peaks_def:
            m = window_mask(sp.x, float(p["position"]), half)
            xs = [v for v, k in zip(sp.x, m) if k]
            ys = [v for v, k in zip(corr, m) if k]
            (c, h, w), r2 = fit_peak(xs, ys, model, eta)
            fits[p["name"]] = {"center": c, "height": h, "fwhm": w,
                               "area": area(model, eta, h, w), "r2": r2}
        samples.append((sp, fits))
    return method, samples


def main():
    batch, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    method, samples = process(batch)
    istd = method["internal_standard"]["name"]
    with open(os.path.join(out, "peaks.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sample", "peak", "center", "fwhm", "height", "area", "r2"])
        for sp, fits in samples:
            for name, r in fits.items():
                w.writerow([sp.title, name, g6(r["center"]), g6(r["fwhm"]), g6(r["height"]),
                            g6(r["area"]), "%.5f" % r["r2"]])
    reproduced = {}
    with open(os.path.join(out, "report.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sample", "analyte", "ratio", "concentration", "flag"])
        for sp, fits in samples:
            for a in method["analytes"]:
                ratio = fits[a["name"]]["area"] / fits[istd]["area"]
                conc, flag = quantify(ratio, a["standards"], sp.dilution)
                reproduced[(sp.title, a["name"])] = (ratio, fits, sp)
                w.writerow([sp.title, a["name"], g6(ratio), g6(conc), flag])
    prev = os.path.join(batch, "previous_report.csv")
    if os.path.exists(prev):
        audit(method, samples, reproduced, prev, os.path.join(out, "audit.csv"))


def audit(method, samples, reproduced, prev, path):
    istd = method["internal_standard"]["name"]
    min_r2 = float(method["min_r2"])
    tol = float(method["audit_tolerance"])
    med = median(fits[istd]["area"] for _, fits in samples)
    analytes = {a["name"]: a for a in method["analytes"]}
    with open(prev, newline="") as f:
        rows = list(csv.DictReader(f))
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sample", "analyte", "codes"])
        for row in rows:
            s, a = row["sample"].strip(), row["analyte"].strip()
            got = reproduced.get((s, a))
            if got is None or a not in analytes:
                w.writerow([s, a, "NO_SAMPLE"])
                continue
            ratio, fits, sp = got
            codes = []
            if fits[istd]["area"] < 0.5 * med:
                codes.append("IS_LOW")
            if fits[a]["r2"] < min_r2 or fits[istd]["r2"] < min_r2:
                codes.append("FIT")
            else:
                lo_hi = calibration_line(analytes[a]["standards"])
                if not lo_hi[2] <= ratio <= lo_hi[3]:
                    codes.append("RANGE")
                rep_ratio = float(row["ratio"])
                rep_conc = float(row["concentration"])
                if abs(rep_ratio - ratio) > tol * abs(ratio):
                    codes.append("RATIO")
                want, _ = quantify(rep_ratio, analytes[a]["standards"], sp.dilution)
                if abs(rep_conc - want) > tol * abs(want):
                    codes.append("CONC")
            w.writerow([s, a, ";".join(sorted(codes))])


if __name__ == "__main__":
    main()
