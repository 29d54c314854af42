"""The grader's own PV model, written from the instruction's equations in vector form.

Time is kept as integer minutes since 1970-01-01 00:00 of the plant's local standard clock; the
sun is a unit vector in east/north/up coordinates built from direction cosines, the module normal
another, and the angle of incidence their dot product (no solar azimuth is ever formed)."""
import math
from datetime import datetime, timedelta

EPOCH = datetime(1970, 1, 1)
# NOAA / Spencer series: constant term, then (cos k g, sin k g) pairs for k = 1, 2, 3.
EOT_TERMS = (0.000075, ((0.001868, -0.032077), (-0.014615, -0.040849)))
DEC_TERMS = (0.006918, ((-0.399912, 0.070257), (-0.006758, 0.000907), (-0.002697, 0.00148)))
SANDIA = (-3.56, -0.075, 3.0)


def minutes_of(text):
    d = datetime.strptime(text.strip(), "%Y-%m-%d %H:%M")
    return int((d - EPOCH).total_seconds()) // 60


def text_of(minutes):
    return (EPOCH + timedelta(minutes=minutes)).strftime("%Y-%m-%d %H:%M")


def fourier(terms, g):
    c0, pairs = terms
    total = c0
    for k, (a, b) in enumerate(pairs, start=1):
        total += a * math.cos(k * g) + b * math.sin(k * g)
    return total


def sun_vector(utc_minutes, lat, lon):
    """(east, north, up) unit vector of the sun and the UTC day of year."""
    t = EPOCH + timedelta(minutes=utc_minutes)
    day = t.timetuple().tm_yday
    clock_h = (utc_minutes % 1440) / 60.0
    g = (2.0 * math.pi / 365.0) * ((day - 1) + (clock_h - 12.0) / 24.0)
    eot_min = 229.18 * fourier(EOT_TERMS, g)
    dec = fourier(DEC_TERMS, g)
    omega = math.radians((clock_h * 60.0 + 4.0 * lon + eot_min) / 4.0 - 180.0)
    phi = math.radians(lat)
    # equatorial frame (x toward the meridian's equator point, y east, z to the pole) -> local ENU
    sx, sy, sz = math.cos(dec) * math.cos(omega), -math.cos(dec) * math.sin(omega), math.sin(dec)
    up = sx * math.cos(phi) + sz * math.sin(phi)
    north = sz * math.cos(phi) - sx * math.sin(phi)
    return (sy, north, up), day


def normal_vector(tilt, azimuth):
    b, a = math.radians(tilt), math.radians(azimuth)
    return (math.sin(b) * math.sin(a), math.sin(b) * math.cos(a), math.cos(b))


def split_ghi(ghi, up, day):
    """Erbs: (dni, dhi) from GHI."""
    if up <= 0.1:
        return 0.0, ghi
    top = 1367.0 * (1.0 + 0.033 * math.cos(2.0 * math.pi * day / 365.0))
    kt = ghi / (top * up)
    if kt > 0.8:
        frac = 0.165
    elif kt > 0.22:
        frac = 0.9511 + kt * (-0.1604 + kt * (4.388 + kt * (-16.638 + kt * 12.336)))
    else:
        frac = 1.0 - 0.09 * kt
    return (ghi - frac * ghi) / up, frac * ghi


def point(plant, local_start, step, w):
    """w: dict of weather values (None = missing). Returns dict of poa, cell, dc, ac_kwh, clip_kwh or None."""
    if w.get("ghi") is None or w.get("temp_air") is None:
        return None
    ghi, ta = w["ghi"], w["temp_air"]
    ws = 1.0 if w.get("wind_speed") is None else w["wind_speed"]
    utc_mid = local_start + step / 2.0 - plant["utc_offset_hours"] * 60.0
    s, day = sun_vector(utc_mid, plant["latitude"], plant["longitude"])
    up = s[2]
    if w.get("dni") is None or w.get("dhi") is None:
        dni, dhi = split_ghi(ghi, up, day)
    else:
        dni, dhi = w["dni"], w["dhi"]
    n = normal_vector(plant["tilt_deg"], plant["azimuth_deg"])
    if up > 0:
        ci = s[0] * n[0] + s[1] * n[1] + s[2] * n[2]
        e = (max(ci, 0.0) * dni + dhi * (1.0 + n[2]) / 2.0 + plant["albedo"] * ghi * (1.0 - n[2]) / 2.0)
    else:
        e = 0.0
    a, b, dt = SANDIA
    cell = ta + e * math.exp(a + b * ws) + dt * e / 1000.0
    derate = 1.0 + (plant["gamma_pdc_pct_per_c"] / 100.0) * (cell - 25.0)
    dc = max(0.0, plant["dc_capacity_kw"] * (e / 1000.0) * derate * (1.0 - plant["dc_loss_fraction"]))
    pot = dc * plant["inverter_efficiency"]
    ac = pot if pot < plant["ac_limit_kw"] else plant["ac_limit_kw"]
    h = step / 60.0
    return {"poa": e, "cell": cell, "dc": dc, "ac_kwh": ac * h, "clip_kwh": (pot - ac) * h}


def expected(plant, step, rows):
    """rows: {local start minute: weather dict}. Returns the ordered list of
    (start_minute, status, result-or-None, ac_kwh-or-None) over the file's full grid."""
    lo, hi = min(rows), max(rows)
    starts = list(range(lo, hi + step, step))
    res = [point(plant, t, step, rows[t]) if t in rows else None for t in starts]
    ac = [r["ac_kwh"] if r else None for r in res]
    status = ["ok" if r else "missing" for r in res]
    # gap rule: interior runs of <= 60 minutes are interpolated between the two ok neighbours
    k = 0
    while k < len(starts):
        if res[k] is not None:
            k += 1
            continue
        end = k
        while end < len(starts) and res[end] is None:
            end += 1
        if k >= 1 and end < len(starts) and (end - k) * step <= 60:
            left, right = ac[k - 1], ac[end]
            for q in range(k, end):
                frac = (starts[q] - starts[k - 1]) / float(starts[end] - starts[k - 1])
                ac[q] = left * (1.0 - frac) + right * frac
                status[q] = "filled"
        k = end
    return [(starts[i], status[i], res[i], ac[i]) for i in range(len(starts))]
