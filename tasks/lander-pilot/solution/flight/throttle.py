"""From desired velocities to a command (FLIGHT.md §4.5).

Desired accelerations: ax = 1.2/s * (vx_des - vx) - wind, limited to +-0.45 max_accel;
ay = gravity + 1.5/s * (vy_des - vy) (2.5/s in the terminal phase), never below 0.
The tilt is atan2(ax, ay) within +-max_angle; the thrust is the one whose vertical part is ay,
ay / (max_accel * cos(tilt)). While the tilt is saturated above 3 m the thrust is raised to buy
the lateral acceleration (at most 0.6 max_accel) -- a slight climb is the price.
"""
import math

LATERAL_ACCEL_GAIN = 1.2
LATERAL_ACCEL_SHARE = 0.45
VERTICAL_GAIN = 1.5
TERMINAL_GAIN = 2.5
BUY_SHARE = 0.6
BUY_ABOVE = 3.0


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def desired_accel(limits, vx_des, vy_des, vx, vy, wind, phase):
    A = limits.max_accel
    ax = clamp(LATERAL_ACCEL_GAIN * (vx_des - vx) - wind, -A * LATERAL_ACCEL_SHARE, A * LATERAL_ACCEL_SHARE)
    gain = TERMINAL_GAIN if phase == "terminal" else VERTICAL_GAIN
    ay = max(limits.gravity + gain * (vy_des - vy), 0.0)
    return ax, ay


def command(limits, ax, ay, y):
    """(thrust, angle) for the desired accelerations."""
    A, top = limits.max_accel, limits.max_angle
    if ay <= 0:
        return 0.0, clamp(math.atan2(ax, 0.0) if ax else 0.0, -top, top)
    ang = clamp(math.atan2(ax, ay), -top, top)
    thrust = ay / (A * math.cos(ang))
    if abs(ang) >= top - 1e-9 and y > BUY_ABOVE:
        thrust = max(thrust, min(abs(ax), BUY_SHARE * A) / (A * math.sin(top)))
    return clamp(thrust, 0.0, 1.0), ang


def applied_accel(limits, thrust, angle):
    """What the command does (gravity included vertically): the filter's prediction input."""
    A = limits.max_accel
    return thrust * A * math.sin(angle), thrust * A * math.cos(angle) - limits.gravity
