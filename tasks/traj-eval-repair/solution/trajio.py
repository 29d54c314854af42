"""Reading and writing trajectory files (TUM-style text: stamp tx ty tz qx qy qz qw)."""
import math


class TrajectoryError(ValueError):
    """A trajectory file that cannot be read."""


def parse_line(line):
    """Returns (stamp, position, quaternion xyzw) for a data line, or None for a comment/blank."""
    text = line.split("#", 1)[0].strip()
    if not text:
        return None
    fields = text.replace(",", " ").replace("\t", " ").split()
    if len(fields) != 8:
        raise TrajectoryError("expected 8 fields, got %d: %r" % (len(fields), line))
    v = [float(f) for f in fields]
    qx, qy, qz, qw = v[4], v[5], v[6], v[7]
    n = math.sqrt(qx * qx + qy * qy + qz * qz + qw * qw)
    if n == 0.0:
        raise TrajectoryError("zero quaternion: %r" % line)
    return v[0], (v[1], v[2], v[3]), (qx / n, qy / n, qz / n, qw / n)


def read_trajectory(path):
    """Reads a trajectory file; returns its poses as (stamp, position, quat_xyzw), sorted by stamp."""
    poses = []
    with open(path) as f:
        for line in f:
            p = parse_line(line)
            if p is not None:
                poses.append(p)
    poses.sort(key=lambda p: p[0])
    return poses


def write_trajectory(path, poses):
    with open(path, "w") as f:
        f.write("# timestamp tx ty tz qx qy qz qw\n")
        for t, p, q in poses:
            f.write("%.6f %.6f %.6f %.6f %.7f %.7f %.7f %.7f\n" % ((t,) + tuple(p) + tuple(q)))
