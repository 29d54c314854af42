"""The simulator's JSON-lines protocol (FLIGHT.md §2)."""
import json
import sys

OBS_KEYS = ("x", "y", "vx", "vy")


def messages(stream=None):
    """Yields the decoded messages of the simulator, one per non-blank line, until `end` or EOF."""
    stream = stream or sys.stdin
    for line in stream:
        line = line.strip()
        if not line:
            continue
        msg = json.loads(line)
        yield msg
        if msg.get("type") == "end":
            return


def send(thrust, angle, stream=None):
    """One answer line. Rounded to 4 decimals; flushed at once, the simulator waits for it."""
    stream = stream or sys.stdout
    stream.write(json.dumps({"thrust": round(float(thrust), 4), "angle": round(float(angle), 4)}) + "\n")
    stream.flush()


class Limits:
    """The episode's constants from the init message."""

    def __init__(self, init):
        self.dt = float(init["dt"])
        self.gravity = float(init["gravity"])
        self.max_accel = float(init["max_accel"])
        self.max_angle = float(init["max_angle"])
        self.pad_x = float(init["pad_x"])
        self.pad_half_width = float(init["pad_half_width"])
        self.safe_vy = float(init["safe_vy"])
        self.safe_vx = float(init["safe_vx"])
        self.max_steps = int(init["max_steps"])
        self.burn_rate = float(init["burn_rate"])
        self.fuel = float(init["fuel"])

    def hover_thrust(self):
        """Thrust that holds altitude with the nozzle vertical."""
        return min(1.0, self.gravity / self.max_accel)
