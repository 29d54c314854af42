#!/usr/bin/env python3
"""Writes a runs.json for a temperature sweep of one initial mixture.

    python3 tools/sweep.py --T 1000:1200:50 --init C2H6=0.012 --times 1e-3,1e-2,0.1,1 \
        [--threshold C2H4=0.0024] > runs.json

Each run is named T<temperature>. With --ideal-gas P_PA, the first species of --init is set to
the ideal-gas concentration P/(R T) in mol/L at each temperature (other species keep their value).
"""
import argparse
import json
import sys

R = 8.314462618


def frange(spec):
    lo, hi, step = (float(x) for x in spec.split(":"))
    out, t = [], lo
    while t <= hi + 1e-9:
        out.append(round(t, 6))
        t += step
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--T", required=True, help="LO:HI:STEP in kelvin")
    ap.add_argument("--init", required=True, help="SPECIES=mol/L[,SPECIES=mol/L...]")
    ap.add_argument("--times", required=True, help="comma-separated output times in s")
    ap.add_argument("--threshold", help="SPECIES=VALUE (mol/L)")
    ap.add_argument("--ideal-gas", type=float, help="pressure in Pa for the first --init species")
    a = ap.parse_args()
    init = {}
    for item in a.init.split(","):
        k, v = item.split("=")
        init[k.strip()] = float(v)
    times = [float(x) for x in a.times.split(",")]
    runs = []
    for temp in frange(a.T):
        c = dict(init)
        if a.ideal_gas:
            first = a.init.split(",")[0].split("=")[0].strip()
            c[first] = round(a.ideal_gas / (R * temp) / 1000.0, 6)
        run = {"id": "T%g" % temp, "T": temp, "init": c, "times": times}
        if a.threshold:
            k, v = a.threshold.split("=")
            run["threshold"] = {"species": k.strip(), "value": float(v)}
        runs.append(run)
    json.dump({"runs": runs}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
