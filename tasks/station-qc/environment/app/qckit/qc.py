"""Per-observation quality control of one station's series (time order, one row per instant).

Each observation gets exactly one flag, the first test it fails in this order:
M missing, R range, C climatology, P persistence, S spike; V (valid) otherwise."""
from . import timeutil

MISSING, RANGE, CLIM, PERSIST, SPIKE, VALID = "M", "R", "C", "P", "S", "V"
FLAGS = (VALID, MISSING, RANGE, CLIM, PERSIST, SPIKE)

RANGE_LOW_C = -60.0
RANGE_HIGH_C = 55.0
CLIM_SD_LIMIT = 4.0
PERSIST_PREVIOUS = 5          # this many preceding non-missing values, all equal to this one
SPIKE_WINDOW_S = 3 * 3600     # the previous valid value counts if at most this old
SPIKE_LIMIT_C = 8.0


def out_of_range(value):
    return value < RANGE_LOW_C or value > RANGE_HIGH_C


def climatology_outlier(station, t, value, climatology):
    entry = climatology.get((station, timeutil.utc_month(t)))
    if entry is None:
        return False
    mean, sd = entry
    return value - mean > CLIM_SD_LIMIT * sd


def persistent(history, value):
    """history: rounded values of the preceding non-missing observations, oldest first."""
    window = history[-(PERSIST_PREVIOUS - 1):] + [round(value, 2)]
    if len(window) < PERSIST_PREVIOUS:
        return False
    return all(h == window[-1] for h in window)


def spike(reference, t, value):
    if reference is None:
        return False
    t0, v0 = reference
    return t - t0 <= SPIKE_WINDOW_S and abs(value - v0) > SPIKE_LIMIT_C


def flag_series(station, series, climatology):
    """series: [(utc_seconds, celsius or None)] -> [flag] of the same length."""
    flags = []
    history = []
    reference = None
    for t, value in series:
        if value is None:
            flags.append(MISSING)
            continue
        if out_of_range(value):
            flag = RANGE
        elif climatology_outlier(station, t, value, climatology):
            flag = CLIM
        elif persistent(history, value):
            flag = PERSIST
        elif spike(reference, t, value):
            flag = SPIKE
        else:
            flag = VALID
        history.append(round(value, 2))
        reference = (t, value)
        flags.append(flag)
    return flags
