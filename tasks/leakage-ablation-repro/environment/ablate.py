"""Runs the ablation table of a study.

    python3 ablate.py DATA_DIR OUT_DIR

DATA_DIR holds data.csv and configs.json; OUT_DIR/ablation.csv gets one row per configuration.
"""
import csv, json, os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from abl import pipeline, table  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    data_dir, out_dir = argv[1], argv[2]
    with open(os.path.join(data_dir, "configs.json")) as f:
        spec = json.load(f)
    tab = table.load(os.path.join(data_dir, "data.csv"))
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "ablation.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["config", "accuracy", "macro_f1"])
        for cfg in spec["configs"]:
            m = pipeline.evaluate(tab, cfg, int(spec["folds"]))
            w.writerow([cfg["name"], "%.4f" % m["accuracy"], "%.4f" % m["macro_f1"]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
