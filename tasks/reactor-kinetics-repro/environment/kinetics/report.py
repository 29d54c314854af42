"""CSV writers for the driver's outputs."""
import csv


def fmt(x):
    return "%.10e" % x


def write_concentrations(path, species, rows):
    """rows: (run_id, t, [c per species])"""
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["run", "t"] + list(species))
        for run_id, t, conc in rows:
            w.writerow([run_id, fmt(t)] + [fmt(c) for c in conc])


def write_table(path, header, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        for row in rows:
            w.writerow([fmt(v) if isinstance(v, float) else v for v in row])
