"""Time-based availability and produced energy per month (SPEC.md section 8)."""
from .filters import status_class
from .timebase import month_of

AVAILABLE = ("run", "curtailed", "ambient")


def tally(recs, unavailable=("fault",)):
    """{month: dict(records, energy_kwh, available, unavailable)} and the same over the whole period."""
    months = {}
    whole = {"records": 0, "energy_kwh": 0.0, "available": 0, "unavailable": 0}
    for r in recs:
        m = months.setdefault(month_of(r["start"]), {"records": 0, "energy_kwh": 0.0, "available": 0, "unavailable": 0})
        cls = status_class(r["status"])
        for t in (m, whole):
            t["records"] += 1
            if r["power"] is not None:
                t["energy_kwh"] += r["power"] / 6.0
            if cls in unavailable:
                t["unavailable"] += 1
            elif cls in AVAILABLE:
                t["available"] += 1
    return months, whole


def pct(t):
    den = t["available"] + t["unavailable"]
    return None if den == 0 else 100.0 * t["available"] / den
