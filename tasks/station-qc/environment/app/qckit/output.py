"""CSV writing: integers plain, decimals with two places, no value as an empty field."""
import csv
import os

DAILY_COLUMNS = ["station", "date", "n_obs", "n_valid", "n_missing", "n_range", "n_clim",
                 "n_persist", "n_spike", "complete", "mean_c", "min_c", "max_c", "anomaly_c"]
SUMMARY_COLUMNS = ["station", "n_obs", "n_valid", "n_missing", "n_range", "n_clim", "n_persist",
                   "n_spike", "days", "complete_days", "monthly_mean_c"]


def cell(value):
    if value is None:
        return ""
    if isinstance(value, float):
        return "%.2f" % value
    return str(value)


def write_rows(path, columns, rows):
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        for r in rows:
            w.writerow([cell(r.get(c)) for c in columns])
