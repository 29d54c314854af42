#!/usr/bin/env python3
"""rxsim: runs every case of a runs.json against a mechanism and writes the result tables.

    python3 rxsim.py CASE_DIR OUT_DIR

CASE_DIR holds mechanism.mech and runs.json; OUT_DIR receives concentrations.csv, events.csv and
conservation.csv (see README.md).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kinetics import Integrator, Model, parse_file  # noqa: E402
from kinetics.report import write_concentrations, write_table  # noqa: E402

RTOL = 1e-8
ATOL_FACTOR = 1e-12  # absolute tolerance relative to the run's total initial concentration


def crossing_time(integ, species_index, value, t0, y0, t1, y1):
    """First time in (t0, t1] at which the species reaches value, located by bisection on
    single Rosenbrock steps from (t0, y0)."""
    lo, hi = 0.0, t1 - t0
    for _ in range(200):
        if hi - lo <= 1e-13 * max(t1, 1e-300):
            break
        mid = 0.5 * (lo + hi)
        ym, _ = integ.step(y0, mid)
        if ym[species_index] >= value:
            hi = mid
        else:
            lo = mid
    return t0 + hi


def simulate(mech, run):
    species = mech.species
    y0 = [float(run.get("init", {}).get(s, 0.0)) for s in species]
    unknown = set(run.get("init", {})) - set(species)
    if unknown:
        raise SystemExit("run %s: unknown species %s" % (run["id"], sorted(unknown)))
    times = [float(t) for t in run["times"]]
    model = Model(mech, float(run["T"]))
    total = sum(abs(v) for v in y0) or 1.0
    integ = Integrator(model, rtol=RTOL, atol=ATOL_FACTOR * total)
    event = run.get("threshold")
    found = []
    if event is not None:
        si = species.index(event["species"])
        value = float(event["value"])
        if y0[si] >= value:
            found.append(0.0)

        def on_step(t0, ya, t1, yb):
            if not found and yb[si] >= value:
                found.append(crossing_time(integ, si, value, t0, ya, t1, yb))
    else:
        on_step = None
    states = integ.solve(y0, times, on_step=on_step)
    return y0, times, states, found


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    case_dir, out_dir = argv[1], argv[2]
    mech = parse_file(os.path.join(case_dir, "mechanism.mech"))
    with open(os.path.join(case_dir, "runs.json"), encoding="utf-8") as f:
        runs = json.load(f)["runs"]
    os.makedirs(out_dir, exist_ok=True)
    conc_rows, event_rows, cons_rows = [], [], []
    for run in runs:
        y0, times, states, found = simulate(mech, run)
        for t, y in zip(times, states):
            conc_rows.append((run["id"], t, y))
        if run.get("threshold") is not None:
            ev = run["threshold"]
            event_rows.append((run["id"], ev["species"], float(ev["value"]), found[0] if found else ""))
        start = mech.element_totals(y0)
        for el in sorted(mech.elements):
            init = start[el]
            series = [mech.element_totals(y)[el] for y in states]
            drift = max((abs(v - init) for v in series), default=0.0)
            if init != 0.0:
                drift /= abs(init)
            cons_rows.append((run["id"], el, init, series[-1] if series else init, drift))
    write_concentrations(os.path.join(out_dir, "concentrations.csv"), mech.species, conc_rows)
    write_table(os.path.join(out_dir, "events.csv"), ["run", "species", "threshold", "t_cross"], event_rows)
    write_table(os.path.join(out_dir, "conservation.csv"),
                ["run", "element", "initial", "final", "max_rel_drift"], cons_rows)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
