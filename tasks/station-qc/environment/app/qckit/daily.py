"""Station-day aggregation (UTC calendar days) and the per-station flag summary."""
from . import qc, timeutil

COMPLETE_MIN_VALID = 18
COUNT_COLUMNS = ("n_obs", "n_valid", "n_missing", "n_range", "n_clim", "n_persist", "n_spike")
_COUNT_OF_FLAG = {qc.VALID: "n_valid", qc.MISSING: "n_missing", qc.RANGE: "n_range",
                  qc.CLIM: "n_clim", qc.PERSIST: "n_persist", qc.SPIKE: "n_spike"}


def round2(x):
    return None if x is None else round(x, 2) + 0.0


def day_rows(station, series, flags, climatology):
    """-> [row dict] per UTC date with at least one observation, in date order."""
    days = {}
    for (t, value), flag in zip(series, flags):
        d = days.setdefault(timeutil.utc_date(t), {"values": [], "seen": [], "month": timeutil.utc_month(t),
                                                    **{c: 0 for c in COUNT_COLUMNS}})
        d["n_obs"] += 1
        d[_COUNT_OF_FLAG[flag]] += 1
        if value is not None:
            d["seen"].append(value)
        if flag == qc.VALID:
            d["values"].append(value)
    rows = []
    for date in sorted(days):
        d = days[date]
        vals = d["values"]
        mean = round2(sum(vals) / len(vals)) if vals else None
        complete = d["n_obs"] >= COMPLETE_MIN_VALID
        entry = climatology.get((station, d["month"]))
        anomaly = None
        if complete and mean is not None and entry is not None:
            anomaly = round2(mean - entry[0])
        row = {"station": station, "date": date}
        row.update({c: d[c] for c in COUNT_COLUMNS})
        row.update({"complete": 1 if complete else 0, "mean_c": mean,
                    "min_c": round2(min(d["seen"])) if vals else None,
                    "max_c": round2(max(d["seen"])) if vals else None, "anomaly_c": anomaly})
        rows.append(row)
    return rows


def summary_row(station, rows):
    out = {"station": station}
    for c in COUNT_COLUMNS:
        out[c] = sum(r[c] for r in rows)
    good = [r["mean_c"] for r in rows if r["mean_c"] is not None]
    out["days"] = len(rows)
    out["complete_days"] = sum(1 for r in rows if r["complete"])
    out["monthly_mean_c"] = round2(sum(good) / len(good)) if good else None
    return out


def run_network(observations, climatology):
    """-> (daily rows, summary rows), sorted by station (then date)."""
    daily, summary = [], []
    for station in sorted(observations):
        series = observations[station]
        flags = qc.flag_series(station, series, climatology)
        rows = day_rows(station, series, flags, climatology)
        daily.extend(rows)
        summary.append(summary_row(station, rows))
    return daily, summary
