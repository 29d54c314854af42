"""Expected AC energy per weather interval, with the gap rules."""
from datetime import timedelta

from .irradiance import cos_incidence, erbs, poa
from .power import ac_power, cell_temperature, dc_power
from .solar import sun_position

GAP_FILL_MAX_MIN = 60
DEFAULT_WIND = 1.0


class Interval:
    def __init__(self, start):
        self.start = start
        self.status = "missing"
        self.poa = self.cell = self.dc = self.ac_kwh = None
        self.clipped_kwh = 0.0


def compute(plant, values, start, step_min):
    """One interval from its weather values, or None when GHI or the air temperature is missing."""
    ghi, temp = values.get("ghi"), values.get("temp_air")
    if ghi is None or temp is None:
        return None
    wind = values.get("wind_speed")
    if wind is None:
        wind = DEFAULT_WIND
    mid = start + timedelta(minutes=step_min / 2.0)
    cosz, zen, az, doy = sun_position(mid, plant.latitude, plant.longitude)
    dni, dhi = values.get("dni"), values.get("dhi")
    if dni is None or dhi is None:
        dni, dhi = erbs(ghi, cosz, doy)
    cai = cos_incidence(cosz, zen, az, plant.tilt_deg, plant.azimuth_deg)
    g = poa(ghi, dni, dhi, cosz, cai, plant.tilt_deg, plant.albedo)
    tc = cell_temperature(g, temp, wind)
    pdc = dc_power(plant, g, tc)
    pac, clipped = ac_power(plant, pdc)
    hours = step_min / 60.0
    return g, tc, pdc, pac * hours, clipped * hours


def run(plant, weather):
    out = []
    for start in weather.grid():
        iv = Interval(start)
        values = weather.rows.get(start)
        res = compute(plant, values, start, weather.step_min) if values is not None else None
        if res is not None:
            iv.status = "ok"
            iv.poa, iv.cell, iv.dc, iv.ac_kwh, iv.clipped_kwh = res
        out.append(iv)
    fill_gaps(out, weather.step_min)
    return out


def fill_gaps(ivs, step_min):
    i, n = 0, len(ivs)
    while i < n:
        if ivs[i].status != "missing":
            i += 1
            continue
        j = i
        while j < n and ivs[j].status == "missing":
            j += 1
        # ivs[i:j] is a maximal run of missing intervals
        if i > 0 and j < n and (j - i) * step_min < GAP_FILL_MAX_MIN:
            a, b = ivs[i - 1].ac_kwh, ivs[j].ac_kwh
            span = j - (i - 1)
            for k in range(i, j):
                ivs[k].status = "filled"
                ivs[k].ac_kwh = a + (b - a) * (k - (i - 1)) / span
        i = j
    return ivs
