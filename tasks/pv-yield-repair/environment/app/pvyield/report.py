"""Output tables: per-interval and monthly."""
from datetime import timedelta


def fmt(x, nd=6):
    return "" if x is None else ("%.*f" % (nd, x))


def write_intervals(path, ivs):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("start,status,poa_wm2,cell_temp_c,dc_kw,ac_kwh\n")
        for iv in ivs:
            f.write("%s,%s,%s,%s,%s,%s\n" % (iv.start.strftime("%Y-%m-%d %H:%M"), iv.status, fmt(iv.poa, 4),
                                              fmt(iv.cell, 4), fmt(iv.dc, 6), fmt(iv.ac_kwh, 6)))


def monthly(plant, ivs, step_min):
    months = {}
    for iv in ivs:
        key = (iv.start - timedelta(hours=plant.utc_offset_hours)).strftime("%Y-%m")
        m = months.setdefault(key, {"kwh": 0.0, "clip": 0.0, "missing": 0})
        if iv.status == "missing":
            m["missing"] += 1
        else:
            m["kwh"] += iv.ac_kwh
            m["clip"] += iv.clipped_kwh
    rows = []
    for key in sorted(months):
        m = months[key]
        rows.append((key, m["kwh"], m["clip"], m["missing"] * step_min / 60.0, m["kwh"] / plant.ac_limit_kw))
    return rows


def write_monthly(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write("month,expected_kwh,clipped_kwh,missing_hours,specific_yield_kwh_per_kwp\n")
        for key, kwh, clip, miss, sy in rows:
            f.write("%s,%.4f,%.4f,%.4f,%.6f\n" % (key, kwh, clip, miss, sy))

