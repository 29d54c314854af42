"""The grader's own expected values, from the records as the generator planted them (UTC period
starts, values as written, planted status codes). Written from SPEC.md alone, by other routes than
a SCADA reader: nothing is parsed back from local labels, the bin is floor(2v + 1/2), Rayleigh is a
Weibull with k = 2 and A = 2 V/sqrt(pi), the gamma function comes from lgamma, and the AEP sum is
regrouped per curve point (each point's power times half the probability between its neighbours)."""
import math

KELVIN = 273.15
RD = 287.05
GRAV = 9.80665
RHO_STD = 1.225


def klass(code):
    if code is None:
        return "none"
    for lo, name in ((0, "run"), (100, "curt"), (200, "fault"), (300, "maint"), (400, "amb")):
        if lo <= code < lo + 100:
            return name
    return "fault"


def frozen(series):
    """Indices of records inside runs of >= 3 equal speeds in consecutive 10-minute slots."""
    marked = set()
    run = []
    for idx, r in enumerate(series):
        if run:
            last = series[run[-1]]
            if r["ws"] is not None and r["ws"] == last["ws"] and r["slot"] == last["slot"] + 1:
                run.append(idx)
                continue
            if len(run) >= 3:
                marked.update(run)
        run = [idx] if r["ws"] is not None else []
    if len(run) >= 3:
        marked.update(run)
    return marked


def normalised_speed(r, hub, sensor):
    tk = r["temp"] + KELVIN
    scale_height = RD * tk / GRAV
    rho = r["pres"] * 100.0 / (RD * tk) * math.exp((sensor - hub) / scale_height)
    return r["ws"] * math.exp(math.log(rho / RHO_STD) / 3.0)


def used_records(series, hub, sensor):
    """series: in-period records sorted by slot. Returns the curve's records with 'vn' set."""
    bad = frozen(series)
    out = []
    for idx, r in enumerate(series):
        if idx in bad or klass(r["status"]) != "run":
            continue
        if None in (r["ws"], r["power"], r["temp"], r["pres"], r["rh"]):
            continue
        if r["temp"] <= 2.0 and r["rh"] >= 85.0:
            continue
        q = dict(r)
        q["vn"] = normalised_speed(r, hub, sensor)
        out.append(q)
    return out


def bin_index(v):
    return int(math.floor(2.0 * v + 0.5))


def bin_table(used, key="vn"):
    tab = {}
    for r in used:
        b = bin_index(r[key])
        if b >= 1:
            tab.setdefault(b, []).append(r)
    return {b: (len(rs), math.fsum(x[key] for x in rs) / len(rs), math.fsum(x["power"] for x in rs) / len(rs))
            for b, rs in tab.items()}


def curve_of(used):
    """{bin: (n, ws, power, filled)} by the gap rule."""
    tab = bin_table(used)
    good = [b for b in tab if tab[b][0] >= 3]
    if not good:
        return {}
    lo, hi = min(good), max(good)
    out = {}
    b = lo
    while b <= hi:
        if b in good:
            out[b] = tab[b][:3] + (0,)
        elif (b + 1) in good and (b - 1) in out:
            _, w0, p0, _ = out[b - 1]
            _, w1, p1 = tab[b + 1]
            out[b] = (0, 0.5 * (w0 + w1), 0.5 * (p0 + p1), 1)
        else:
            break
        b += 1
    return out


def weibull_params(spec):
    if spec["distribution"] == "rayleigh":
        return 2.0, 2.0 * float(spec["mean_ms"]) / math.sqrt(math.pi)
    k = float(spec["k"])
    return k, float(spec["mean_ms"]) / math.exp(math.lgamma(1.0 + 1.0 / k))


def aep(curve, spec, cut_out):
    k, a = weibull_params(spec)

    def prob(v):
        return 1.0 - math.exp(-((v / a) ** k)) if v > 0 else 0.0

    pts = [(w, max(p, 0.0)) for _, (n, w, p, f) in sorted(curve.items()) if w <= cut_out]
    if not pts:
        return 0.0
    speeds = [pts[0][0] - 0.5] + [w for w, _ in pts]
    cdf = [prob(v) for v in speeds]
    total = 0.0
    last = len(pts)
    for i in range(1, last + 1):
        p = pts[i - 1][1]
        if i < last:
            total += p * 0.5 * (cdf[i + 1] - cdf[i - 1])
        else:
            total += p * (0.5 * (cdf[i] - cdf[i - 1]) + prob(cut_out) - cdf[i])
    return 8.76 * total


def month_tally(series, down=("fault",)):
    """{month: [records, energy_mwh, available, unavailable]}"""
    out = {}
    for r in series:
        t = out.setdefault(r["month"], [0, 0.0, 0, 0])
        t[0] += 1
        if r["power"] is not None:
            t[1] += r["power"] / 6000.0
        c = klass(r["status"])
        if c in down:
            t[3] += 1
        elif c in ("run", "curt", "amb"):
            t[2] += 1
    return out


def pct(av, un):
    return None if av + un == 0 else av * 100.0 / (av + un)


def expected(site, series_by_turbine):
    """The run's three tables keyed for comparison."""
    want = {"curve": {}, "monthly": {}, "summary": {}}
    for t in site["turbines"]:
        tid = t["id"]
        series = series_by_turbine[tid]
        used = used_records(series, float(t["hub_height_m"]), float(t["sensor_height_m"]))
        cv = curve_of(used)
        for b, (n, w, p, f) in cv.items():
            want["curve"][(tid, b)] = (n, w, p, f)
        mt = month_tally(series)
        per_month = {}
        for r in used:
            per_month[r["month"]] = per_month.get(r["month"], 0) + 1
        for m, (n, e, av, un) in mt.items():
            want["monthly"][(tid, m)] = (n, per_month.get(m, 0), e, av / 6.0, un / 6.0, pct(av, un))
        av = sum(v[2] for v in mt.values())
        un = sum(v[3] for v in mt.values())
        want["summary"][tid] = (len(used), len(cv), aep(cv, site["aep"], float(t["cut_out_ms"])), pct(av, un))
    return want
