"""File formats: parameter JSON, input-schedule CSV, state CSV (see /app/README.md)."""
import csv, json

from .model import Inputs, ZoneParams

KW = 1e-3   # W per kW


def read_params(path):
    """Returns (ZoneParams, (t_air0, t_mass0))."""
    with open(path) as f:
        d = json.load(f)
    p = ZoneParams(c_air=float(d["c_air_j_per_k"]), c_mass=float(d["c_mass_j_per_k"]),
                   r_am=float(d["r_am_k_per_w"]), r_ao=float(d["r_ao_k_per_w"]),
                   aperture=float(d["solar_aperture_m2"]))
    return p, (float(d["t_air0_c"]), float(d["t_mass0_c"]))


def read_inputs(path):
    """Input schedule: time_s, t_out_c, solar_w_m2 and heat_w (or heat_kw), any column order.
    Returns [(time_s, Inputs)] sorted by time."""
    rows = []
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            if "heat_w" in r:
                heat = float(r["heat_w"])
            else:
                heat = float(r["heat_kw"]) * KW
            rows.append((float(r["time_s"]), Inputs(t_out=float(r["t_out_c"]), heat=heat,
                                                    solar=float(r["solar_w_m2"]))))
    rows.sort(key=lambda row: row[0])
    return rows


def write_states(path, states):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["time_s", "t_air_c", "t_mass_c"])
        for t, ta, tm in states:
            w.writerow(["%g" % t, "%.6f" % ta, "%.6f" % tm])
