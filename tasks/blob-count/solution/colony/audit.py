"""Audit of a technician's manual counts against the counter (docs/SPEC.md section 5)."""
import csv
from . import plates


def read_manual(path):
    with open(path, newline="") as f:
        return {r["plate"].strip(): r for r in csv.DictReader(f)}


def findings_for(plate, truth, entry):
    if entry is None:
        return [(plate["plate"], "MISSING_PLATE", "", str(truth["colonies"]))]
    out = []
    said = entry["colonies"].strip()
    said_status = entry["status"].strip()
    if said != str(truth["colonies"]):
        out.append((plate["plate"], "COUNT", said, str(truth["colonies"])))
    try:
        want_cfu = str(int(said) * plate["dilution"]) if said_status == "OK" else ""
    except ValueError:
        want_cfu = ""
    if entry["cfu"].strip() != want_cfu:
        out.append((plate["plate"], "CFU", entry["cfu"].strip(), want_cfu))
    if said_status != truth["status"]:
        out.append((plate["plate"], "STATUS", said_status, truth["status"]))
    return out


def audit(folder, manual_path, out_path):
    manual = read_manual(manual_path)
    rows = []
    known = set()
    for plate in plates.read_plates(folder):
        known.add(plate["plate"])
        truth = plates.count_plate(folder, plate)
        rows += findings_for(plate, truth, manual.get(plate["plate"]))
    for name, entry in manual.items():
        if name not in known:
            rows.append((name, "UNKNOWN_PLATE", entry["colonies"].strip(), ""))
    rows.sort(key=lambda r: (r[0], r[1]))
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["plate", "reason", "reported", "expected"])
        w.writerows(rows)
