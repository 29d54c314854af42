"""The two jobs of the package: propagate a batch of bodies, and report on a catalogue."""
from . import timescale
from .elements import summary
from .events import periapsis_times
from .kepler import propagate
from .units import seconds_to, time_factor, to_seconds


def propagate_batch(doc):
    """{"positions": {id: [[x, y, z], ...]}} for the request document."""
    unit = doc["times"].get("unit", "s")
    out = {}
    for b in doc["bodies"]:
        k = time_factor(unit, b.get("time_unit", "s"))
        out[b["id"]] = [propagate(b["r"], b["v"], b["mu"], t * k)[0] for t in doc["times"]["values"]]
    return {"positions": out}


def report_object(obj, start, end):
    tu = obj.get("time_unit", "s")
    mu = obj["mu"]
    t0 = seconds_to(tu, timescale.elapsed(obj["epoch_utc"], start))
    t1 = seconds_to(tu, timescale.elapsed(obj["epoch_utc"], end))
    r, v = propagate(obj["r"], obj["v"], mu, t0)
    s = summary(obj["r"], obj["v"], mu)
    if s["period"] is not None:
        step = s["period"] / 8.0
    else:
        step = t1 - t0
    times = periapsis_times(obj["r"], obj["v"], mu, t0, t1, step) if s["e"] >= 1e-4 else []
    return {
        "id": obj["id"],
        "r": r,
        "v": v,
        "a": s["a"],
        "e": s["e"],
        "i_deg": s["i_deg"],
        "period": s["period"],
        "perigee_alt": s["periapsis_radius"] - obj["body_radius"],
        "periapsis_s": [to_seconds(tu, t - t0) for t in times],
    }


def report(cat):
    start, end = cat["window"]["start_utc"], cat["window"]["end_utc"]
    rows = [report_object(o, start, end) for o in cat["objects"]]
    rows.sort(key=lambda row: row["id"])
    return {"window": cat["window"], "objects": rows}
