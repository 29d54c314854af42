"""Renders the public examples (environment/examples, tests/examples) and the shipped farm
(environment/app/farm, tests/shipped) from gen.py with fixed seeds; the expected tables come from
ref.py and the planted claims. Never run at grading time."""
import csv
import io
import json
import os
import random
import shutil
import sys
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import ref  # noqa: E402

TASK = os.path.dirname(HERE)


def csv_bytes(header, rows):
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return out.getvalue().encode()


def num(v, d):
    return "" if v is None else "%.*f" % (d, v)


def tables(want, findings):
    curve = [[t, b, "%.1f" % (b / 2.0), n, num(w, 3), num(p, 2), f] for (t, b), (n, w, p, f) in sorted(want["curve"].items())]
    monthly = [[t, m, n, u, num(e, 3), num(a, 2), num(x, 2), num(p, 3)] for (t, m), (n, u, e, a, x, p) in sorted(want["monthly"].items())]
    summary = [[t, u, b, num(a, 2), num(p, 3)] for t, (u, b, a, p) in sorted(want["summary"].items())]
    return {"curve.csv": csv_bytes(["turbine", "bin", "ws_centre", "n", "ws_mean", "power_kw", "filled"], curve),
            "monthly.csv": csv_bytes(["turbine", "month", "records", "used", "energy_mwh", "available_h", "unavailable_h", "availability_pct"], monthly),
            "summary.csv": csv_bytes(["turbine", "used", "curve_bins", "aep_mwh", "availability_pct"], summary),
            "audit.csv": csv_bytes(["claim_id", "reason", "corrected"], sorted(findings))}


def write(folder, files):
    for name, data in sorted(files.items()):
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)


def main():
    for where in ("environment/examples", "tests/examples", "environment/app/farm", "tests/shipped"):
        shutil.rmtree(os.path.join(TASK, where), ignore_errors=True)
    for name, seed, start in (("example1", "wind-example-1", datetime(2024, 6, 3, tzinfo=timezone.utc)),
                              ("example2", "wind-example-2", datetime(2025, 3, 20, tzinfo=timezone.utc))):
        rng = random.Random(seed)
        files, site, series = gen.build(rng, "example", start=start, days=16, turbines=2, farm=name)
        want = ref.expected(site, series)
        claims, findings = gen.claims(rng, site, series, want)
        for root in ("environment/examples", "tests/examples"):
            base = os.path.join(TASK, root, name)
            write(os.path.join(base, "site"), files)
            write(base, {"claims.csv": claims})
            write(os.path.join(base, "expected"), tables(want, findings))
    rng = random.Random("wind-shipped-farm")
    files, site, series = gen.build(rng, "mixed", start=datetime(2025, 10, 6, tzinfo=timezone.utc), days=42, turbines=3,
                                    farm="Hollow Ridge")
    # the owner's long-term wind study: a Weibull distribution at hub height
    site["aep"] = {"distribution": "weibull", "k": 2.24, "mean_ms": 7.85}
    files["site.json"] = (json.dumps(site, indent=2) + "\n").encode()
    want = ref.expected(site, series)
    claims, findings = gen.claims(rng, site, series, want, wrong_rate=0.4)
    files["claims/operator-claims.csv"] = claims
    for root in ("environment/app/farm", "tests/shipped/farm"):
        write(os.path.join(TASK, root), files)
    write(os.path.join(TASK, "tests/shipped/expected"), tables(want, findings))


if __name__ == "__main__":
    main()
