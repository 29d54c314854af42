"""Sun position from the NOAA (Spencer) series."""
import math


def fractional_year(utc):
    doy = utc.timetuple().tm_yday
    hour = utc.hour + utc.minute / 60.0 + utc.second / 3600.0
    return 2.0 * math.pi / 365.0 * (doy - 1 + (hour - 12.0) / 24.0), doy, hour


def equation_of_time(g):
    return 229.18 * (0.000075 + 0.001868 * math.cos(g) - 0.032077 * math.sin(g)
                     - 0.014615 * math.cos(2 * g) - 0.040849 * math.sin(2 * g))


def declination(g):
    return (0.006918 - 0.399912 * math.cos(g) + 0.070257 * math.sin(g) - 0.006758 * math.cos(2 * g)
            + 0.000907 * math.sin(2 * g) - 0.002697 * math.cos(3 * g) + 0.00148 * math.sin(3 * g))


def sun_position(when, latitude, longitude):
    """Returns (cos_zenith, zenith_deg, azimuth_deg from north clockwise, day_of_year)."""
    g, doy, hour = fractional_year(when)
    decl = declination(g)
    tst = hour * 60.0  # minutes past midnight on the plant's clock
    ha = ((tst / 4.0 - 180.0) + 180.0) % 360.0 - 180.0
    phi, h = math.radians(latitude), math.radians(ha)
    cosz = math.sin(phi) * math.sin(decl) + math.cos(phi) * math.cos(decl) * math.cos(h)
    cosz = max(-1.0, min(1.0, cosz))
    zen = math.acos(cosz)
    denom = math.cos(phi) * math.sin(zen)
    if abs(denom) < 1e-12:
        az = 180.0
    else:
        c = (math.sin(decl) - math.sin(phi) * cosz) / denom
        az = math.degrees(math.acos(max(-1.0, min(1.0, c))))
        if ha > 0:
            az = 360.0 - az
    return cosz, math.degrees(zen), az, doy
