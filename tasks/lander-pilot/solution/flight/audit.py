"""`pilot.py audit LOGS_DIR OUT_CSV`: the cause of every flight log (FLIGHT.md §7)."""
import csv
import math
import sys

from .logs import log_paths, read_log

DROPOUT_WINDOW = 20
DROPOUT_MIN = 3
WIND_SHARE = 0.1


def mean_wind(log, upto):
    """Mean horizontal disturbance over step records 1..upto (each against its predecessor)."""
    h, recs = log.header, log.steps
    dt, A = float(h["dt"]), float(h["max_accel"])
    parts = []
    for i in range(1, upto + 1):
        cur, prev = recs[i], recs[i - 1]
        parts.append((cur["vx"] - prev["vx"]) / dt - cur["thrust"] * A * math.sin(cur["angle"]))
    return sum(parts) / len(parts) if parts else 0.0


def classify(log):
    """(cause, step)."""
    h, recs = log.header, log.steps
    t = log.touchdown()
    if t is None:
        if len(recs) >= int(h["max_steps"]):
            return "TIMEOUT", recs[-1]["step"]
        return "PILOT_SILENT", (recs[-1]["step"] + 1) if recs else 0
    td = recs[t]
    soft = abs(td["vy"]) <= float(h["safe_vy"]) and abs(td["vx"]) <= float(h["safe_vx"])
    on_pad = abs(td["x"] - float(h["pad_x"])) <= float(h["pad_half_width"])
    if soft and on_pad:
        return "OK", td["step"]
    if not soft:
        for rec in recs[:t]:
            if rec["fuel"] <= 0:
                return "FUEL_EXHAUSTED", rec["step"]
        window = recs[max(0, t - DROPOUT_WINDOW + 1): t + 1]
        lost = [rec["step"] for rec in window if (rec.get("obs") or {}).get("y") is None]
        if len(lost) >= DROPOUT_MIN:
            return "SENSOR_DROPOUT", lost[0]
        if abs(td["vy"]) > float(h["safe_vy"]):
            return "HARD_LANDING", td["step"]
        return "LATERAL_SKID", td["step"]
    w = mean_wind(log, t)
    drift = td["x"] - float(h["pad_x"])
    if abs(w) >= WIND_SHARE * float(h["gravity"]) and drift * w > 0:
        return "WIND_DRIFT", td["step"]
    return "OFF_PAD", td["step"]


def main(argv):
    if len(argv) != 2:
        print("usage: pilot.py audit LOGS_DIR OUT_CSV", file=sys.stderr)
        return 2
    folder, out = argv
    rows = []
    for path in log_paths(folder):
        log = read_log(path)
        cause, step = classify(log)
        rows.append((log.name, cause, step))
    rows.sort()
    with open(out, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["flight", "cause", "step"])
        w.writerows(rows)
    return 0
