"""Batch driver: python3 /app/runbatch.py BATCH_DIR OUT_DIR

Reads BATCH_DIR/method.json and every spectrum under BATCH_DIR/spectra, writes OUT_DIR/peaks.csv
and OUT_DIR/report.csv.
"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from specfit.baseline import remove_baseline, window_mask  # noqa: E402
from specfit.peaks import area, fit_peak  # noqa: E402
from specfit.quant import quantify  # noqa: E402
from specfit.readers import read_spectrum  # noqa: E402


def g6(v):
    return "%.6g" % v


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
    with open(os.path.join(out, "report.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["sample", "analyte", "ratio", "concentration", "flag"])
        for sp, fits in samples:
            for a in method["analytes"]:
                ratio = fits[a["name"]]["area"] / fits[istd]["area"]
                conc, flag = quantify(ratio, a["standards"], sp.dilution)
                w.writerow([sp.title, a["name"], g6(ratio), g6(conc), flag])


if __name__ == "__main__":
    main()
