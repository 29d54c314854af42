"""Renders the public examples and the shipped site (environment/ and the grader's copies in
tests/). Never run at grading time: `python3 tests/make_examples.py` from the task folder."""
import json, os, random, shutil, sys
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen, pvref

TASK = os.path.dirname(HERE)


def write(folder, files):
    os.makedirs(folder, exist_ok=True)
    for name, text in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8", newline="") as f:
            f.write(text)


def num(x, nd):
    return "" if x is None else "%.*f" % (nd, x)


def interval_text(plant, step, rows):
    out = ["start,status,poa_wm2,cell_temp_c,dc_kw,ac_kwh"]
    for t, status, r, ac in pvref.expected(plant, step, rows):
        out.append(",".join([pvref.text_of(t), status, num(r and r["poa"], 4), num(r and r["cell"], 4),
                             num(r and r["dc"], 6), num(ac, 6)]))
    return "\n".join(out) + "\n"


def monthly_text(plant, step, rows):
    out = ["month,expected_kwh,clipped_kwh,missing_hours,specific_yield_kwh_per_kwp"]
    for k, (kwh, clip, miss, sy) in sorted(gen.month_table(plant, step, rows).items()):
        out.append("%s,%.4f,%.4f,%.4f,%.6f" % (k, kwh, clip, miss, sy))
    return "\n".join(out) + "\n"


def audit_text(found):
    out = ["date,code,value"]
    for day, code, v in found:
        out.append("%s,%s,%s" % (day, code, ("%d" % v) if code == "meter_timestamp_shift" else "%.4f" % v))
    return "\n".join(out) + "\n"


def example(name, seed, want, components, label, station):
    for i in range(200):
        files, plant, found = gen.audit_case(random.Random("%s-%d" % (seed, i)), want)
        head = files["weather.csv"].splitlines()
        if ("dni" in head[3]) == components and head[2] == "# timestamp_label: " + label:
            break
    files["weather.csv"] = files["weather.csv"].replace("# station: hidden", "# station: " + station)
    step, rows = gen.read_rows(files["weather.csv"])
    exp = {"intervals.csv": interval_text(plant, step, rows), "monthly.csv": monthly_text(plant, step, rows),
           "audit.csv": audit_text(found)}
    for root in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        write(os.path.join(root, name, "site"), files)
        write(os.path.join(root, name, "expected"), exp)


def site():
    rng = random.Random("pvyield-site-2025")
    plant = {"name": "Hollfeld Solarpark", "latitude": 49.937, "longitude": 11.291, "utc_offset_hours": 1.0,
             "tilt_deg": 22.0, "azimuth_deg": 168.0, "dc_capacity_kw": 4860.0, "ac_limit_kw": 3900.0,
             "gamma_pdc_pct_per_c": -0.34, "inverter_efficiency": 0.976, "dc_loss_fraction": 0.028, "albedo": 0.21}
    start = pvref.minutes_of("2025-01-01 00:00")
    n = 365 * 24
    rows = gen.synth(rng, plant, start, n, 60)
    for _ in range(9):
        gen.plan_gaps(rng, rows, 60, start, n)
    for t in rng.sample(sorted(rows), 40):
        if rows.get(t):
            rows[t]["dni" if rng.random() < 0.5 else "dhi"] = None
    rows = {t: r for t, r in rows.items() if r is not None}
    text = gen.render_weather(rng, rows, 60, "end", True, gen.MISSING_TOKENS, station="Hollfeld pyranometer mast")
    files = {"plant.json": json.dumps(plant, indent=2) + "\n", "weather.csv": text}
    for root in (os.path.join(TASK, "environment", "site"), os.path.join(HERE, "site")):
        write(root, files)
    step, parsed = gen.read_rows(text)
    return monthly_text(plant, step, parsed)


if __name__ == "__main__":
    for root in (os.path.join(TASK, "environment", "examples"), os.path.join(HERE, "examples")):
        shutil.rmtree(root, ignore_errors=True)
    example("example1", "pvyield-example-1", lambda p, step: step == 10 and p["latitude"] > 0, True, "start", "on-site irradiance station (GHI, DNI, DHI)")
    example("example2", "pvyield-example-2", lambda p, step: step == 60 and p["latitude"] < 0, False, "end", "satellite-derived hourly GHI")
    print(site())
