"""Unit tables. Durations are converted through SI seconds."""

# Seconds per time unit (a civil day of 86400 SI seconds).
TIME_S = {"s": 1.0, "min": 60.0, "h": 3600.0, "day": 86400.0}

LENGTH_UNITS = ("km", "m", "AU")


def time_factor(from_unit, to_unit):
    """Multiply a duration given in from_unit by this factor to express it in to_unit."""
    return TIME_S[from_unit] / TIME_S[to_unit]


def seconds_to(unit, seconds):
    """A duration in SI seconds expressed in `unit`."""
    return seconds * time_factor("s", unit)


def to_seconds(unit, value):
    """A duration in `unit` expressed in SI seconds."""
    return value * time_factor(unit, "s")
