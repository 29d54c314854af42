"""The paper's table (SPEC.md section 10, `table`)."""
import json
import os

from . import io, metrics, temperature

COLS = ["accuracy", "ece", "ace", "cwece", "nll", "brier"]


def table(paper_dir, out_csv):
    with open(os.path.join(paper_dir, "config.json"), encoding="utf-8") as f:
        cfg = json.load(f)
    bins = int(cfg["bins"])
    lines = ["model,dataset,n_test,accuracy,temperature,ece_before,ece_after,ace_before,ace_after,"
             "cwece_before,cwece_after,nll_before,nll_after,brier_before,brier_after"]
    for run in cfg["runs"]:
        rows = io.read_logits(os.path.join(paper_dir, run["logits"]))
        t = round(temperature.fit(rows.select("val")), 4)
        test = rows.select("test")
        before = metrics.evaluate(test, bins, 1.0)
        after = metrics.evaluate(test, bins, t)
        cells = [run["model"], run["dataset"], str(before["n"]), "%.6f" % before["accuracy"], "%.4f" % t]
        for m in ("ece", "ace", "cwece", "nll", "brier"):
            cells += ["%.6f" % before[m], "%.6f" % after[m]]
        lines.append(",".join(cells))
    with open(out_csv, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
