"""The study definition (study.json) and the penalty grid."""
import json
import os


class Study:
    def __init__(self, folder):
        with open(os.path.join(folder, "study.json"), encoding="utf-8") as f:
            cfg = json.load(f)
        self.folder = folder
        self.data = os.path.join(folder, cfg["data"])
        self.subject = cfg["subject"]
        self.folds = int(cfg["folds"])
        self.outcomes = list(cfg["outcomes"])
        self.feature_sets = [(fs["name"], list(fs["features"])) for fs in cfg["feature_sets"]]
        self.categorical = set(cfg.get("categorical", []))
        grid = cfg["lambda_grid"]
        self.grid = lambda_grid(float(grid["min"]), float(grid["max"]), int(grid["count"]))


def lambda_grid(lo, hi, count):
    """count values from lo to hi, evenly spaced on the log scale, ascending (both ends included)."""
    if count == 1:
        return [lo]
    return [lo * (hi / lo) ** (j / (count - 1)) for j in range(count)]
