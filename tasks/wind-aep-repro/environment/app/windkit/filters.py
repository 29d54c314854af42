"""Which records the power curve may use, and how each counts for availability (SPEC.md section 4)."""
from .timebase import STEP

ICING_TEMP_C = 2.0
ICING_RH_PCT = 85.0
STUCK_RUN = 3


def status_class(code):
    """'run', 'curtailed', 'fault', 'maintenance', 'ambient' or None (no status)."""
    if code is None:
        return None
    if 0 <= code < 200:
        return "run"
    if 300 <= code < 400:
        return "maintenance"
    if 400 <= code < 500:
        return "ambient"
    return "fault"


def icing(rec):
    return rec["temp"] <= ICING_TEMP_C and rec["rh"] >= ICING_RH_PCT


def stuck_flags(recs):
    """True for every record inside a run of STUCK_RUN or more consecutive intervals with the same speed."""
    flags = [False] * len(recs)
    i = 0
    while i < len(recs):
        j = i
        while (j + 1 < len(recs) and recs[i]["ws"] is not None and recs[j + 1]["ws"] == recs[i]["ws"]
               and recs[j + 1]["start"] - recs[j]["start"] == STEP):
            j += 1
        if recs[i]["ws"] is not None and j - i + 1 >= STUCK_RUN:
            for k in range(i + 1, j + 1):
                flags[k] = True
        i = j + 1
    return flags


def usable(recs):
    """The records the power curve uses."""
    stuck = stuck_flags(recs)
    out = []
    for rec, st in zip(recs, stuck):
        if status_class(rec["status"]) != "run":
            continue
        if any(rec[k] is None for k in ("ws", "power", "temp", "pres", "rh")):
            continue
        if icing(rec) or st:
            continue
        out.append(rec)
    return out
