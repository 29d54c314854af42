"""Audit of another team's ephemeris claims (docs/SPEC.md, section 6)."""
from . import timescale
from .elements import summary
from .kepler import propagate
from .units import seconds_to
from .vectors import norm

REL = 1e-6


def close(got, want):
    try:
        diff = [float(a) - b for a, b in zip(got, want)]
    except (TypeError, ValueError):
        return False
    return len(got) == 3 and norm(diff) <= REL * norm(want)


def check(claim):
    obj = claim["object"]
    mu, tu = obj["mu"], obj.get("time_unit", "s")
    dt = seconds_to(tu, timescale.elapsed(obj["epoch_utc"], claim["at_utc"]))
    at = lambda t: propagate(obj["r"], obj["v"], mu, t)[0]
    right = at(dt)
    period = summary(obj["r"], obj["v"], mu)["period"]
    said = claim.get("r")
    if close(said, right):
        p = claim.get("period")
        if (p is None) == (period is None) and (p is None or abs(p - period) <= REL * period):
            return None
        reason = "BAD_PERIOD"
    elif close(said, [1000.0 * x for x in right]) or close(said, [x / 1000.0 for x in right]):
        reason = "WRONG_UNITS"
    elif any(close(said, at(dt + seconds_to(tu, k))) for k in (-1.0, 1.0)):
        reason = "LEAP_SECOND"
    elif close(said, at(-dt)):
        reason = "TIME_REVERSED"
    else:
        reason = "BAD_POSITION"
    return {"claim_id": claim["claim_id"], "reason": reason, "r": right, "period": period}


def audit(doc):
    rows = [f for f in (check(c) for c in doc["claims"]) if f is not None]
    rows.sort(key=lambda f: f["claim_id"])
    return {"findings": rows}
