"""Annual energy production from the measured curve (SPEC.md section 7)."""
import math

HOURS = 8760.0


def cdf_factory(spec):
    mean = float(spec["mean_ms"])
    if spec["distribution"] == "rayleigh":
        return lambda v: 0.0 if v <= 0 else 1.0 - math.exp(-math.pi / 4.0 * (v / mean) ** 2)
    if spec["distribution"] == "weibull":
        k = float(spec["k"])
        scale = mean / math.gamma(1.0 + 1.0 / k)
        return lambda v: 0.0 if v <= 0 else 1.0 - math.exp(-((v / scale) ** k))
    raise ValueError("unknown distribution %r" % spec["distribution"])


def aep_mwh(curve, spec, cut_out):
    pts = [(c["ws"], max(c["power"], 0.0)) for c in curve if c["ws"] <= cut_out]
    if not pts:
        return 0.0
    F = cdf_factory(spec)
    prev_v, prev_p = pts[0][0] - 0.5, 0.0
    total = 0.0
    for v, p in pts:
        total += (F(v) - F(prev_v)) * (prev_p + p) / 2.0
        prev_v, prev_p = v, p
    total += (F(cut_out) - F(prev_v)) * prev_p
    return HOURS * total / 1000.0
