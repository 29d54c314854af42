"""Guidance (FLIGHT.md §4.4): the velocity the lander should have now.

Lateral: towards the pad centre, 0.35/s times the offset, at most 10 m/s either way.
Vertical, three phases:
  * cruise (y > 12 m, or settled over the pad): descend at 0.25/s * y + 0.6 m/s, between 0.9 and
    9 m/s -- brisk: hovering costs fuel every second;
  * approach (y <= 12 m, not yet settled): hold towards 8 m, at most 2 m/s up or down;
  * terminal (y < 3 m and settled): sink at 0.9 m/s.
"Settled" means within a quarter pad width of the centre (|offset| < pad_half_width / 2).
"""

LATERAL_GAIN = 0.35
LATERAL_MAX = 10.0
CRUISE_GAIN = 0.25
CRUISE_BIAS = 0.6
CRUISE_MIN = 0.9
CRUISE_MAX = 3.0
APPROACH_FLOOR = 12.0
HOLD_ALTITUDE = 8.0
HOLD_GAIN = 0.3
HOLD_MAX = 2.0
TERMINAL_ALTITUDE = 3.0
TERMINAL_SINK = 0.9


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def settled(limits, x):
    return abs(limits.pad_x - x) < limits.pad_half_width * 0.5


def lateral_target(limits, x):
    return clamp(LATERAL_GAIN * (limits.pad_x - x), -LATERAL_MAX, LATERAL_MAX)


def vertical_target(limits, x, y):
    """(phase, desired vy)."""
    over = settled(limits, x)
    if y < TERMINAL_ALTITUDE and over:
        return "terminal", -TERMINAL_SINK
    if y > APPROACH_FLOOR or over:
        return "cruise", -clamp(CRUISE_GAIN * y + CRUISE_BIAS, CRUISE_MIN, CRUISE_MAX)
    return "approach", clamp(HOLD_GAIN * (HOLD_ALTITUDE - y), -HOLD_MAX, HOLD_MAX)
