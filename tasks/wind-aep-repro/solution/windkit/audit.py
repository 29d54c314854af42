"""Audit of an operator's performance claims (SPEC.md section 10)."""
import csv

from .availability import pct, tally
from .binning import bin_means
from .report import analyse, write
from .site import Site

DECIMALS = {"availability_pct": 3, "energy_mwh": 3, "curve_power_kw": 2, "aep_mwh": 2}


def same(a, b, d):
    return a is not None and b is not None and abs(a - b) <= 0.5 * 10 ** -d + 1e-9


def audit(folder, claims_csv, out_csv):
    site = Site(folder)
    by_id = {t["id"]: t for t in site.turbines}
    cache = {}
    with open(claims_csv, newline="", encoding="utf-8") as f:
        claims = [{k.strip(): (v or "").strip() for k, v in r.items() if k} for r in csv.DictReader(f)]
    rows = []
    for c in claims:
        tid, metric, d = c["turbine"], c["metric"], DECIMALS[c["metric"]]
        if tid not in cache:
            res = analyse(site, by_id[tid])
            res["raw"] = bin_means(res["used"], key="ws")
            cache[tid] = res
        res = cache[tid]
        value = float(c["value"])
        reason, correct = None, None
        if metric == "availability_pct":
            months, _ = tally(res["records"])
            correct = pct(months[c["month"]]) if c["month"] in months else None
            if not same(value, correct, d):
                alt_c = pct(tally(res["records"], ("fault", "curtailed"))[0].get(c["month"], {"available": 0, "unavailable": 0}))
                alt_m = pct(tally(res["records"], ("fault", "maintenance"))[0].get(c["month"], {"available": 0, "unavailable": 0}))
                reason = "CURTAILMENT_AS_FAULT" if same(value, alt_c, d) else "MAINTENANCE_AS_FAULT" if same(value, alt_m, d) else "WRONG_AVAILABILITY"
        elif metric == "energy_mwh":
            m = res["months"].get(c["month"])
            correct = None if m is None else m["energy_kwh"] / 1000.0
            if not same(value, correct, d):
                reason = "ENERGY_MISMATCH"
        elif metric == "curve_power_kw":
            k = int(round(float(c["bin"]) / 0.5))
            pts = {p["bin"]: p for p in res["curve"]}
            correct = pts[k]["power"] if k in pts else None
            if not same(value, correct, d):
                raw = res["raw"].get(k)
                reason = "UNNORMALISED_CURVE" if raw is not None and same(value, raw[2], d) else "WRONG_CURVE"
        elif metric == "aep_mwh":
            correct = res["aep"]
            if not same(value, correct, d):
                reason = "AEP_MISMATCH"
        else:
            raise ValueError("unknown metric %r" % metric)
        if reason:
            rows.append([c["claim_id"], reason, "" if correct is None else "%.*f" % (d, correct)])
    rows.sort(key=lambda r: r[0])
    write(out_csv, ["claim_id", "reason", "corrected"], rows)
