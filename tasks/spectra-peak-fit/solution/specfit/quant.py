"""Calibration curve (ordinary least squares, ratio against concentration) and quantification."""
from .linalg import lstsq_poly


def calibration_line(standards):
    concs = [float(s[0]) for s in standards]
    ratios = [float(s[1]) for s in standards]
    intercept, slope = lstsq_poly(concs, ratios, 1)
    return slope, intercept, min(ratios), max(ratios)


def quantify(ratio, standards, dilution):
    slope, intercept, lo, hi = calibration_line(standards)
    conc = (ratio - intercept) / slope * dilution
    flag = "OK" if lo <= ratio <= hi else "EXTRAPOLATED"
    return conc, flag
