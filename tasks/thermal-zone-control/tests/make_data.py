"""Writes the starter data in environment/data from the grader's exact plant (run by hand when the
data must change; the grader never runs it). The site building's parameters are plant.SITE."""
import json, os, random, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import plant

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "environment", "data")
COMM = dict(c_air_j_per_k=1.2e6, c_mass_j_per_k=1.1e7, r_am_k_per_w=1 / 420.0, r_ao_k_per_w=1 / 95.0,
            solar_aperture_m2=2.6, t_air0_c=12.0, t_mass0_c=11.5)


def commissioning():
    rng = random.Random("commissioning")
    n = 576
    t_out, solar = plant.weather(rng, n, 300.0, 6.0, 4.0, 520.0)
    q = plant.excitation(rng, n, 5000.0)
    inputs = [(t_out[k], round(q[k] / 1000.0, 3) * 1000.0, round(solar[k], 1)) for k in range(n)]
    inputs = [(round(a, 2), b, c) for a, b, c in inputs]
    times = [300.0 * k for k in range(n)]
    xs = plant.simulate(COMM, (COMM["t_air0_c"], COMM["t_mass0_c"]), times, inputs)
    d = os.path.join(DATA, "commissioning")
    os.makedirs(d, exist_ok=True)
    json.dump(COMM, open(os.path.join(d, "params.json"), "w"), indent=2)
    with open(os.path.join(d, "inputs.csv"), "w") as f:
        f.write("time_s,t_out_c,heat_kw,solar_w_m2\n")
        for k in range(n):
            f.write("%d,%.2f,%.3f,%.1f\n" % (times[k], inputs[k][0], inputs[k][1] / 1000.0, inputs[k][2]))
    with open(os.path.join(d, "log.csv"), "w") as f:
        f.write("time_s,t_air_c,t_mass_c\n")
        for k in range(n):
            f.write("%d,%.3f,%.3f\n" % (times[k], xs[k][0] + rng.uniform(-0.01, 0.01), xs[k][1] + rng.uniform(-0.01, 0.01)))


def write_log(path, rows):
    with open(path, "w") as f:
        f.write("time_s,t_out_c,solar_w_m2,heat_w,t_air_c,t_mass_c\n")
        for r in rows:
            f.write("%d,%.2f,%.1f,%.1f,%.3f,%.3f\n" % r)


def site():
    rng = random.Random("site")
    rows = plant.id_log(rng, plant.SITE, 5 * 288, plant.SITE_QMAX, 0.02, (17.0, 17.6), 300.0)
    d = os.path.join(DATA, "site")
    os.makedirs(d, exist_ok=True)
    write_log(os.path.join(d, "log.csv"), rows)


if __name__ == "__main__":
    commissioning()
    site()
    # The grader's own byte-identical copies of the public data.
    for name in ("commissioning", "site"):
        dst = os.path.join(HERE, "examples", name)
        shutil.rmtree(dst, ignore_errors=True)
        shutil.copytree(os.path.join(DATA, name), dst)
