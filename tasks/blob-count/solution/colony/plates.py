"""Plate batches: plates.csv, the colony report and its status rule (docs/SPEC.md section 4)."""
import csv, os
from . import measure

TOO_FEW = 3      # fewer colonies than this: TFTC
TOO_MANY = 12    # more colonies than this: TNTC


def read_plates(folder):
    with open(os.path.join(folder, "plates.csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    return [{"plate": r["plate"].strip(), "image": r["image"].strip(), "dilution": int(r["dilution"])}
            for r in rows]


def status_of(colonies):
    if colonies < TOO_FEW:
        return "TFTC"
    if colonies > TOO_MANY:
        return "TNTC"
    return "OK"


def count_plate(folder, plate):
    table = measure.analyse(os.path.join(folder, plate["image"]))
    colonies = table["count"]
    status = status_of(colonies)
    cfu = str(colonies * plate["dilution"]) if status == "OK" else ""
    return {"plate": plate["plate"], "colonies": colonies, "border": table["border_count"],
            "cfu": cfu, "status": status}


def count_batch(folder):
    rows = [count_plate(folder, p) for p in read_plates(folder)]
    rows.sort(key=lambda r: r["plate"])
    return rows


def write_csv(path, header, rows):
    with open(path, "w", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(header)
        for r in rows:
            out.writerow([r[k] for k in header])


def run_batch(folder, out_path):
    write_csv(out_path, ["plate", "colonies", "border", "cfu", "status"], count_batch(folder))
