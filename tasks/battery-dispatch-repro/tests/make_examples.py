"""Renders the public examples and the shipped study (environment/ and the grader's copies in
tests/). Never run at grading time: `python3 tests/make_examples.py` from the task folder."""
import json
import os
import random
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen  # noqa: E402
import ref  # noqa: E402

TASK = os.path.dirname(HERE)
DISPATCH_COLS = ("start", "load_kw", "price", "charge_kw", "discharge_kw", "grid_kw", "soc_kwh")
BILL_COLS = ("month", "baseline_energy_cost", "baseline_peak_kw", "baseline_demand_cost", "energy_cost", "peak_kw",
             "demand_cost", "savings", "throughput_kwh", "equivalent_full_cycles", "degradation_cost")
STUDY_COLS = ("capacity_kwh", "power_kw", "baseline_cost", "battery_cost", "energy_savings", "demand_savings",
              "bill_savings", "equivalent_full_cycles", "degradation_cost", "net_savings")


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)


def expected_files(site, files, found):
    ser = ref.series(files["load.csv"])
    rows, bills = ref.bill_table(site, ser)
    d = [",".join(DISPATCH_COLS)]
    for r in rows:
        d.append("%s,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f" % (ref.utc_key(r[0]), r[2], r[3], r[4], r[5], r[6], r[7]))
    b = [",".join(BILL_COLS)]
    for m, v in bills.items():
        b.append(",".join([m] + ["%.6f" % v[c] for c in BILL_COLS[1:]]))
    a = ["key,code,value"] + ["%s,%s,%.6f" % x for x in found]
    return {"dispatch.csv": "\n".join(d) + "\n", "bill.csv": "\n".join(b) + "\n", "audit.csv": "\n".join(a) + "\n"}


def example(name, seed, start, zone, label, unit):
    for i in range(500):
        files, site, found = gen.audit_case(random.Random("%s-%d" % (seed, i)), start=start, zone=zone,
                                            label=label, unit=unit)
        codes = {c for _, c, _ in found}
        if gen.informative(site, files["load.csv"]) and len(codes) >= 5:
            break
    else:
        raise SystemExit("no example for " + name)
    site["name"] = name
    files["load.csv"] = files["load.csv"].replace("# site: hidden", "# site: " + name)
    files["vendor_log.csv"] = files["vendor_log.csv"].replace("# vendor: hidden", "# vendor: VoltStack Energy Services")
    files["site.json"] = json.dumps(site, indent=1) + "\n"
    for root in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        write(os.path.join(root, name), files)
        write(os.path.join(root, name, "expected"), expected_files(site, files, found))


def study():
    sizes = [{"capacity_kwh": 100.0, "power_kw": 50.0}, {"capacity_kwh": 200.0, "power_kw": 50.0},
             {"capacity_kwh": 200.0, "power_kw": 100.0}, {"capacity_kwh": 400.0, "power_kw": 100.0},
             {"capacity_kwh": 600.0, "power_kw": 150.0}]
    files, st, text = gen.study_case(random.Random("shipped-study"), days=365, start=(2025, 1, 1), zone=("us", -480),
                                     sizes=sizes, label="end", unit="kWh")
    st["title"] = "Behind-the-meter storage sizing for the Harbour Road cold store (2025)"
    files["study.json"] = json.dumps(st, indent=1) + "\n"
    files["load.csv"] = files["load.csv"].replace("# site: hidden", "# site: harbour-road-cold-store")
    table = ref.study_table(st, ref.series(files["load.csv"]))
    lines = ["# Harbour Road cold store: battery sizing study (2025)", "",
             "The site's 2025 interval data (`load.csv`: 15-minute energy with the utility's tariff price,",
             "period-end stamps) and the study's assumptions (`study.json`). The consultant's report was",
             "produced with an earlier version of battsim. Its summary table, rounded as printed:", "",
             "| battery | annual bill savings | net of degradation |", "|---|---|---|"]
    for r in table:
        if r["capacity_kwh"] in (100.0, 400.0):
            lines.append("| %d kWh / %d kW | about %d00 | about %d00 |" % (
                r["capacity_kwh"], r["power_kw"], round(r["bill_savings"] / 100.0), round(r["net_savings"] / 100.0)))
    lines += ["", "(The other sizes' rows were lost with the spreadsheet.)", ""]
    files["README.md"] = "\n".join(lines)
    for root in (os.path.join(TASK, "environment", "study"), os.path.join(HERE, "study")):
        if os.path.isdir(root):
            shutil.rmtree(root)
        write(root, files)
    for r in table:
        print(" ".join("%s=%.2f" % (c, r[c]) for c in STUDY_COLS))


if __name__ == "__main__":
    for root in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        if os.path.isdir(root):
            shutil.rmtree(root)
    example("example1", "ex1", (2025, 1, 26), (None, 600), "start", "kW")
    example("example2", "ex2", (2025, 10, 25), ("us", -480), "end", "kWh")
    study()
