"""Calibration curve (ordinary least squares, ratio against concentration) and quantification."""
from .linalg import lstsq_poly


def calibration_line(standards):
    concs = [float(s[0]) for s in standards]
    ratios = [float(s[1]) for s in standards]
    intercept, slope = lstsq_poly(concs, ratios, 1)
    return slope, intercept, min(ratios), max(ratios)


def quantify(ratio, standards, dilution):
    slope, intercept, _, _ = calibration_line(standards)
    conc = (ratio - intercept) / slope * dilution
    levels = [float(s[0]) for s in standards]
    flag = "OK" if min(levels) <= conc <= max(levels) else "EXTRAPOLATED"
    return conc, flag
