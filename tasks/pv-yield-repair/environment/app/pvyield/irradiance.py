"""Plane-of-array irradiance: isotropic sky, Erbs decomposition for GHI-only rows."""
import math


def extraterrestrial(doy):
    return 1367.0 * (1.0 + 0.033 * math.cos(2.0 * math.pi * doy / 365.0))


def erbs(ghi, cosz, doy):
    """Splits GHI into (dni, dhi)."""
    if cosz <= 0.1:
        return 0.0, ghi
    kt = ghi / (extraterrestrial(doy) * cosz)
    if kt <= 0.22:
        kd = 1.0 - 0.09 * kt
    elif kt <= 0.8:
        kd = 0.9511 - 0.1604 * kt + 4.388 * kt ** 2 - 16.638 * kt ** 3 + 12.336 * kt ** 4
    else:
        kd = 0.165
    dhi = kd * ghi
    return (ghi - dhi) / cosz, dhi


def cos_incidence(cosz, zenith_deg, azimuth_deg, tilt_deg, surface_azimuth_deg):
    z, b = math.radians(zenith_deg), math.radians(tilt_deg)
    return (cosz * math.cos(b)
            + math.sin(z) * math.sin(b) * math.cos(azimuth_deg - surface_azimuth_deg))


def poa(ghi, dni, dhi, cosz, cos_aoi, tilt_deg, albedo):
    if cosz <= 0:
        return 0.0
    b = math.radians(tilt_deg)
    beam = dni * max(cos_aoi, 0.0)
    sky = dhi * (1.0 + math.cos(b)) / 2.0
    ground = ghi * albedo * (1.0 - math.cos(b)) / 2.0
    return beam + sky + ground
