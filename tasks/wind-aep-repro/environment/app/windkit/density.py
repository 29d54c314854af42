"""Air density at hub height and normalised wind speed (SPEC.md section 5)."""
import math

R_DRY = 287.05
G = 9.80665
RHO0 = 1.225


def air_density(temp_c, pres_hpa, hub_m, sensor_m):
    t = temp_c + 273.15
    p = pres_hpa * 100.0 * math.exp(-G * (hub_m - sensor_m) / (R_DRY * temp_c))
    return p / (R_DRY * t)


def normalise(recs, turbine):
    """Adds 'wsn' (density-normalised speed) to every record."""
    hub = float(turbine["hub_height_m"])
    sensor = float(turbine["sensor_height_m"])
    for r in recs:
        rho = air_density(r["temp"], r["pres"], hub, sensor)
        r["rho"] = rho
        r["wsn"] = r["ws"]
        r["power"] = r["power"] * (RHO0 / rho) ** (1.0 / 3.0)
    return recs
