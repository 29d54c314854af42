"""Readers for the two SCADA export formats (SPEC.md sections 2 and 3)."""
import csv

from .timebase import LocalDecoder, parse_utc
from .units import POWER_SCALE, number, status


def _record(start, ws, power, temp, pres, rh, st):
    return {"start": start, "ws": ws, "ws_text": ws, "power": power, "temp": temp,
            "pres": pres, "rh": rh, "status": st}


def read_acme(path):
    """ACME: comma separated, UTC period-start stamps, power in kW."""
    out = []
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            row = {k.strip(): v for k, v in row.items() if k}
            if not (row.get("timestamp") or "").strip():
                continue
            rec = _record(parse_utc(row["timestamp"]), number(row["ws_avg"]), number(row["power_avg"]),
                          number(row["temp_c"]), number(row["pressure_hpa"]), number(row["rh_pct"]),
                          status(row["status"]))
            rec["ws_text"] = (row["ws_avg"] or "").strip()
            out.append(rec)
    return out


def read_bora(path, std_min, dst):
    """BORA: semicolon separated, '#' comment lines (one declares the power unit), local period-end stamps."""
    scale = 1.0
    lines = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith("#"):
                body = s[1:].strip().lower().replace(" ", "")
                if body.startswith("unit_power="):
                    scale = POWER_SCALE[body.split("=", 1)[1]]
                continue
            lines.append(s)
    header = [h.strip() for h in lines[0].split(";")]
    decoder = LocalDecoder(std_min, dst)
    out = []
    for s in lines[1:]:
        row = dict(zip(header, [c.strip() for c in s.split(";")]))
        p = number(row["p_act"])
        rec = _record(decoder.start_of(row["time_end"]), number(row["wind"]),
                      None if p is None else p * scale, number(row["t_amb"]), number(row["p_amb"]),
                      number(row["hum"]), status(row["state"]))
        rec["ws_text"] = row["wind"]
        out.append(rec)
    return out


def read_turbine(site, turbine):
    path = site.path(turbine["file"])
    if turbine["format"] == "acme":
        recs = read_acme(path)
    elif turbine["format"] == "bora":
        recs = read_bora(path, site.std_min, site.dst)
    else:
        raise ValueError("unknown format %r" % turbine["format"])
    recs.sort(key=lambda r: r["start"])
    return [r for r in recs if site.in_period(r["start"])]
