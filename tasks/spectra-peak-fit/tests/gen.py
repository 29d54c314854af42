"""Hidden batch generator for spectra-peak-fit: every answer is planted, then the files are made.

A batch is method.json, spectra/ (CSV exports and JCAMP-DX files) and, for the audit kind,
previous_report.csv. Peak centres, widths and areas, the true peak-area ratios, the planted
report errors, shoulders and internal-standard failures are chosen first; the spectra are drawn
from them (planted polynomial baseline plus seeded Gaussian noise).
"""
import json
import math

FOUR_LN2 = 4.0 * math.log(2.0)
G_UNIT = math.sqrt(math.pi / FOUR_LN2)  # Gaussian area / (height * fwhm)
L_UNIT = math.pi / 2.0                   # Lorentzian area / (height * fwhm)


def unit_area(model, eta):
    if model == "gaussian":
        return G_UNIT
    if model == "lorentzian":
        return L_UNIT
    return eta * L_UNIT + (1.0 - eta) * G_UNIT


def profiles(model, eta, us):
    """Shape at each u = (x - centre) / fwhm, height 1 (a whole axis at once: the generator's
    hottest loop). Per point it is g = exp(-FOUR_LN2 * u * u) for a Gaussian, lo = 1.0 / (1.0 +
    4.0 * u * u) for a Lorentzian and eta * lo + (1.0 - eta) * g for a pseudo-Voigt."""
    exp, k = math.exp, -FOUR_LN2
    if model == "gaussian":
        return [exp(k * u * u) for u in us]
    if model == "lorentzian":
        return [1.0 / (1.0 + 4.0 * u * u) for u in us]
    rest = 1.0 - eta
    return [eta * (1.0 / (1.0 + 4.0 * u * u)) + rest * exp(k * u * u) for u in us]


def ols(points):
    """Slope and intercept of ratio on concentration (centred sums)."""
    n = float(len(points))
    mc = sum(c for c, _ in points) / n
    mr = sum(r for _, r in points) / n
    sxy = sum((c - mc) * (r - mr) for c, r in points)
    sxx = sum((c - mc) ** 2 for c, _ in points)
    slope = sxy / sxx
    return slope, mr - slope * mc


def sig4(v):
    return float("%.4g" % v)


KIND = {
    #            spacing choices               models                          readers
    "readers": ([0.4, 0.5, 0.6, 0.75], ["pseudo_voigt", "gaussian"], "mixed"),
    "baseline": ([0.08, 0.1, 0.125], ["lorentzian", "pseudo_voigt"], "mixed"),
    "shapes": ([0.25, 0.4, 0.5], ["pseudo_voigt", "lorentzian", "gaussian"], "mixed"),
    "quant": ([0.4, 0.5], ["gaussian", "pseudo_voigt"], "mixed"),
    "audit": ([0.4, 0.5], ["gaussian", "pseudo_voigt"], "mixed"),
    "example1": ([1.0], ["gaussian"], "mixed"),
    "example2": ([0.1], ["pseudo_voigt"], "mixed"),
}

# (JCAMP?, descending?, PAC rows?) per sample, in turn, for the reader-focused batches
STYLES = [(False, True, False), (True, True, True), (True, False, False), (False, False, False),
          (True, False, True), (True, True, False)]

NAMES = ["caffeine", "paracetamol", "ibuprofen", "aspirin", "nicotinamide", "benzoate",
         "sorbate", "citrate", "lactate", "urea"]


def layout(rng, spacing, n_analytes):
    """Axis, window half-width, listed peak positions and planted widths."""
    npts = rng.randint(1000, 1600)
    span = spacing * (npts - 1)
    k = n_analytes + 1
    # windows of half-width W, k of them, gaps of at least 0.4 W, edge margins of at least 0.8 W
    w_half = span / (2.0 * k + 0.5 * (k - 1) + 2.0 + rng.uniform(0.2, 0.8))
    w_half = math.floor(w_half * 2.0) / 2.0
    x0 = round(rng.uniform(200, 1200) / spacing) * spacing
    x0 = round(x0, 4)
    free = span - 2.0 * k * w_half - 1.6 * w_half - 0.4 * w_half * (k - 1)
    cuts = sorted(rng.uniform(0, free) for _ in range(k))
    positions = []
    edge = x0 + 0.8 * w_half
    prev_end = edge
    used = 0.0
    for i in range(k):
        start = prev_end + (cuts[i] - used) + (0.4 * w_half if i else 0.0)
        used = cuts[i]
        pos = round(start + w_half, 1)
        positions.append(pos)
        prev_end = pos + w_half
    return x0, npts, w_half, positions


def make_method(rng, kind, model, eta, w_half, positions, analytes):
    degree = rng.randint(1, 3)
    meth = {
        "fit_model": model,
        "window": w_half,
        "baseline_degree": degree,
        "internal_standard": {"name": "istd", "position": positions[0]},
        "analytes": [],
        "min_r2": 0.98,
        "audit_tolerance": 0.05,
        "units": "mg/L",
    }
    if model == "pseudo_voigt":
        meth["eta"] = eta
    curves = {}
    for name, pos in zip(analytes, positions[1:]):
        levels = sorted(set(round(v, 3) for v in [rng.uniform(0.5, 1.5) * f for f in (1, 2, 4, 8, 12)]))
        slope = rng.uniform(0.5, 1.5) / levels[-1]
        intercept = slope * rng.uniform(-0.03, 0.05)
        stds = []
        for c in levels:
            stds.append([c, round((slope * c + intercept) * (1.0 + rng.uniform(-0.01, 0.01)), 5)])
        meth["analytes"].append({"name": name, "position": pos, "standards": stds})
        curves[name] = stds
    return meth, curves, degree


def baseline_fn(rng, degree, height, x0, x1):
    """The planted polynomial baseline, as a function of the whole axis: at each x the sum of
    c_j * ((x - mid) / half) ** j, j = 0..degree, added in that order."""
    mid, half = (x0 + x1) / 2.0, (x1 - x0) / 2.0
    coef = [rng.uniform(0.2, 1.0) * height]
    for _ in range(degree):
        coef.append(rng.choice([-1, 1]) * rng.uniform(0.1, 0.5) * height)
    terms = list(enumerate(coef))
    return lambda xs: [sum([c * t ** j for j, c in terms]) for t in [(x - mid) / half for x in xs]]


def fmt_comma(v, nd):
    return ("%.*f" % (nd, v)).replace(".", ",")


def write_csv(rng, title, dilution, xs, ys, style=None):
    desc = rng.random() < 0.5 if style is None else style[1]
    order = range(len(xs) - 1, -1, -1) if desc else range(len(xs))
    head = ["#Instrument;RX-%d" % rng.randint(100, 999), "#Title;%s" % title,
            "#Date;2026-%02d-%02d" % (rng.randint(1, 12), rng.randint(1, 28))]
    if dilution is not None:
        head.append("#Dilution;%s" % fmt_comma(dilution, 2))
    head += ["#XUnits;1/CM", "#YUnits;counts", "#Points;%d" % len(xs)]
    mid = head[1:]
    rng.shuffle(mid)
    head = head[:1] + mid
    lines = head + ["", "Wavenumber;Intensity"]
    for i in order:
        lines.append("%s;%s" % (fmt_comma(xs[i], 4), fmt_comma(ys[i], 4)))
    nl = "\r\n" if rng.random() < 0.3 else "\n"
    return (nl.join(lines) + nl).encode(), {"desc": desc}


def write_jcamp(rng, title, dilution, xs, ys, spacing, style=None):
    desc = rng.random() < 0.5 if style is None else style[1]
    pac = rng.random() < 0.5 if style is None else style[2]
    xs_o = list(reversed(xs)) if desc else list(xs)
    ys_o = list(reversed(ys)) if desc else list(ys)
    yfactor = rng.choice([0.001, 0.002, 0.005, 0.01])
    xfactor = rng.choice([0.01, 0.001]) if spacing < 1 else 1.0
    ints = [int(round(v / yfactor)) for v in ys_o]
    lines = ["##TITLE=%s" % title, "##JCAMP-DX=4.24", "##DATA TYPE=RAMAN SPECTRUM",
             "##XUNITS=1/CM", "##YUNITS=ARBITRARY UNITS"]
    if dilution is not None:
        lines.append("##$DILUTION=%s" % ("%.2f" % dilution))
    lines += ["##FIRSTX=%r" % xs_o[0], "##LASTX=%r" % xs_o[-1], "##NPOINTS=%d" % len(xs),
              "##XFACTOR=%r" % xfactor, "##YFACTOR=%r" % yfactor, "##XYDATA=(X++(Y..Y))"]
    per = rng.choice([8, 10, 12])
    for s in range(0, len(ints), per):
        chunk = ints[s:s + per]
        xv = int(round(xs_o[s] / xfactor))
        if pac:
            lines.append("%d" % xv + "".join("%+d" % v for v in chunk))
        else:
            lines.append("%d " % xv + " ".join("%d" % v for v in chunk))
    lines.append("##END=")
    return ("\n".join(lines) + "\n").encode(), {"desc": desc, "pac": pac, "yfactor": yfactor,
                                                 "quantum": yfactor}


def build(rng, kind, idx):
    spacings, models, _ = KIND[kind]
    spacing = rng.choice(spacings)
    if kind == "baseline" and idx % 2 == 1:
        spacing = rng.choice([2.0, 2.5, 3.0])  # coarse: a window taken in points would be 2-3 x too wide
    model = models[idx % len(models)]
    eta = round(rng.choice([rng.uniform(0.15, 0.35), rng.uniform(0.65, 0.85)]), 3)
    if kind in ("quant", "audit"):
        eta = round(rng.uniform(0.15, 0.35), 3)
    n_an = rng.randint(1, 2) if kind == "baseline" or spacing < 0.2 else rng.randint(2, 3)
    x0, npts, w_half, positions = layout(rng, spacing, n_an)
    analytes = rng.sample(NAMES, n_an)
    meth, curves, degree = make_method(rng, kind, model, eta, w_half, positions, analytes)
    xs = [round(x0 + i * spacing, 6) for i in range(npts)]
    n_samples = rng.randint(5, 6) if kind in ("audit", "example1") else rng.randint(3, 4)
    ua = unit_area(model, eta)
    files = {}
    exp = {"peaks": [], "report": [], "audit": []}
    titles = ["S-%04d" % v for v in rng.sample(range(1, 10000), n_samples)]
    is_low = rng.randrange(n_samples) if kind in ("audit", "example1") else -1
    shoulder = -1
    if kind in ("audit", "example1"):
        shoulder = rng.choice([i for i in range(n_samples) if i != is_low])
    shoulder_name = rng.choice(analytes)
    audit_kind = kind in ("audit", "example1")
    cells = [(i, n) for i in range(n_samples) for n in analytes
             if not (i == shoulder and n == shoulder_name)]
    forced = rng.sample(cells, min(4, len(cells)))
    plan = {}
    if audit_kind:
        plan = {forced[0]: "RATIO", forced[1]: "CONC", forced[2]: "BOTH"}
    out_cell = forced[-1] if kind in ("quant", "audit", "example1", "example2") else None
    prev_rows = []
    ref_height = rng.uniform(800, 3000)
    for si, title in enumerate(titles):
        if model == "gaussian":
            w_max, w_min = w_half / 6.0, max(w_half / 9.0, 7.0 * spacing)
        else:
            w_max, w_min = w_half / 11.0, max(w_half / 16.0, 7.0 * spacing)
        is_fwhm = rng.uniform(w_min, w_max)
        is_area = ref_height * 0.5 * (w_min + w_max) * ua
        if si == is_low:
            is_area *= rng.uniform(0.2, 0.35)
        else:
            is_area *= rng.uniform(0.85, 1.15)
        is_height = is_area / (is_fwhm * ua)
        dil = None
        if kind == "quant":
            dil = rng.choice([2.5, 4.0, 5.0, 10.0])
        elif kind in ("audit", "example1", "example2") or rng.random() < 0.3:
            dil = rng.choice([None, 1.0, 2.0, 2.5, 5.0, 10.0, 1.25])
        dval = dil if dil is not None else 1.0
        peaks = [("istd", positions[0] + rng.uniform(-0.3, 0.3) * is_fwhm, is_fwhm, is_height)]
        truth = {}
        for name, pos in zip(analytes, positions[1:]):
            stds = curves[name]
            lo = min(r for _, r in stds)
            hi = max(r for _, r in stds)
            outside = kind in ("quant", "audit", "example1", "example2") and rng.random() < 0.25
            if si == shoulder and name == shoulder_name:
                ratio = lo + rng.uniform(0.75, 0.88) * (hi - lo)
            elif outside or (si, name) == out_cell:
                ratio = lo * rng.uniform(0.6, 0.8) if rng.random() < 0.5 else hi * rng.uniform(1.2, 1.4)
            else:
                ratio = rng.uniform(lo + 0.2 * (hi - lo), hi - 0.1 * (hi - lo))
            fw = rng.uniform(w_min, w_max)
            height = ratio * is_area / (fw * ua)
            peaks.append((name, pos + rng.uniform(-0.3, 0.3) * fw, fw, height))
            slope, icpt = ols(stds)
            conc = (ratio - icpt) / slope * dval
            flag = "OK" if lo <= ratio <= hi else "EXTRAPOLATED"
            truth[name] = (ratio, conc, flag, slope, icpt)
        # noise: small against the smallest peak (its height at least 80 sigma)
        min_h = min(p[3] for p in peaks)
        sigma = min(0.002 * max(p[3] for p in peaks), min_h / 150.0)
        base = baseline_fn(rng, degree, max(p[3] for p in peaks), xs[0], xs[-1])
        extra = []
        target = None
        if si == shoulder:
            target = shoulder_name
            nm, c, fw, h = [p for p in peaks if p[0] == target][0]
            extra.append((c + rng.choice([-1, 1]) * rng.uniform(1.1, 1.4) * fw, fw * rng.uniform(0.9, 1.2),
                          h * rng.uniform(0.6, 0.8)))
        # each point: the baseline, plus every peak's and then the shoulder's height * shape in
        # that order, plus its noise draw (drawn in axis order), built one curve at a time
        ys = base(xs)
        for c, fw, h in [p[1:] for p in peaks] + extra:
            ys = [v + h * g for v, g in zip(ys, profiles(model, eta, [(x - c) / fw for x in xs]))]
        ys = [v + rng.gauss(0.0, sigma) for v in ys]
        style = STYLES[si % len(STYLES)] if kind in ("readers", "example1", "example2") else None
        use_jcamp = rng.random() < 0.5 if style is None else style[0]
        if use_jcamp:
            data, info = write_jcamp(rng, title, dil, xs, ys, spacing, style)
            fname = "spectra/%s.jdx" % title.lower()
        else:
            data, info = write_csv(rng, title, dil, xs, ys, style)
            fname = "spectra/%s.csv" % title.lower()
        files[fname] = data
        for nm, c, fw, h in peaks:
            if nm != target:
                exp["peaks"].append([title, nm, c, fw, h * fw * ua])
        for name in analytes:
            if name != target:
                ratio, conc, flag, _, _ = truth[name]
                exp["report"].append([title, name, ratio, conc, flag])
        # previous report rows (audit kinds)
        for name in analytes:
            ratio, conc, flag, slope, icpt = truth[name]
            codes = []
            rep_ratio = sig4(ratio * (1.0 + rng.uniform(-0.005, 0.005)))
            if flag != "OK":
                codes.append("RANGE")
            if si == is_low:
                codes.append("IS_LOW")
            if name == target:
                codes = ["FIT"] + (["IS_LOW"] if si == is_low else [])
                rep_conc = sig4((rep_ratio - icpt) / slope * dval)
            else:
                err = rng.random()
                what = plan.get((si, name)) or ("RATIO" if err < 0.12 else "CONC" if err < 0.24 else "")
                if what in ("RATIO", "BOTH"):
                    rep_ratio = sig4(ratio * (1.0 + rng.choice([-1, 1]) * rng.uniform(0.15, 0.3)))
                    codes.append("RATIO")
                rep_conc = sig4((rep_ratio - icpt) / slope * dval)
                if what in ("CONC", "BOTH"):
                    if dval >= 2.0 and rng.random() < 0.5:
                        rep_conc = sig4(rep_conc / dval)
                    else:
                        rep_conc = sig4(rep_conc * rng.choice([10.0, 0.1, 1.2, 0.8, 1.3, 0.7]))
                    codes.append("CONC")
            prev_rows.append([title, name, "%.4g" % rep_ratio, "%.4g" % rep_conc, "OK"])
            exp["audit"].append([title, name, ";".join(sorted(codes))])
    if kind in ("audit", "example1"):
        ghost = "S-%04d" % rng.choice([v for v in range(10000, 10100)])
        pos = rng.randrange(len(prev_rows) + 1)
        prev_rows.insert(pos, [ghost, analytes[0], "0.5", "1.0", "OK"])
        exp["audit"].insert(pos, [ghost, analytes[0], "NO_SAMPLE"])
        text = "sample,analyte,ratio,concentration,flag\n" + "".join(
            ",".join(r) + "\n" for r in prev_rows)
        files["previous_report.csv"] = text.encode()
    else:
        exp["audit"] = []
    files["method.json"] = (json.dumps(meth, indent=2) + "\n").encode()
    exp["method"] = {"model": model, "spacing": spacing, "window": w_half}
    return files, exp
