"""Grades the repaired simulator, the identification tool, the site parameters and the controller.

Every expected value comes from the grader's own plant (plant.py: closed-form zero-order-hold
solution, planted parameters), never from the agent's files or the solution's code.
"""
import csv, json, math, os, random, shutil, sys, tempfile
sys.path.insert(0, "/tests")
from lh import SEED, WORK, Grader, generate, run, score_continuous, sealed_argv
import plant

g = Grader()
TMP = tempfile.mkdtemp(prefix="hidden-")
HERE = os.path.dirname(os.path.abspath(__file__))
SIM = os.path.join(WORK, "simulate.py")
IDENT = os.path.join(WORK, "identify.py")
CTL = sealed_argv(["python3", os.path.join(WORK, "controller.py")])
# Relative-error tolerance per parameter; the score falls linearly to 0 at four times it.
TOL = dict(c_air_j_per_k=0.015, c_mass_j_per_k=0.15, r_am_k_per_w=0.015, r_ao_k_per_w=0.04, solar_aperture_m2=0.12)


def read_states(path):
    with open(path, newline="") as f:
        return [(float(r["time_s"]), float(r["t_air_c"]), float(r["t_mass_c"])) for r in csv.DictReader(f)]


def max_state_error(got, times, xs):
    if len(got) != len(times):
        return float("inf")
    err = 0.0
    for (t, ta, tm), t_ref, x in zip(got, times, xs):
        if abs(t - t_ref) > 1.0:   # rows are matched by position; the time column only checked loosely
            return float("inf")
        err = max(err, abs(ta - x[0]), abs(tm - x[1]))
    return err if err == err else float("inf")


def public_reproduce():
    src = os.path.join(HERE, "examples", "commissioning")
    d = os.path.join(TMP, "public")
    shutil.copytree(src, d)
    out = os.path.join(d, "states.csv")
    code, _, err = run(["python3", SIM, "--params", os.path.join(d, "params.json"), "--inputs",
                        os.path.join(d, "inputs.csv"), "--out", out], timeout=60)
    if code != 0 or not os.path.exists(out):
        return 0.0, "simulate.py exit %d: %s" % (code, err.strip()[-200:])
    with open(os.path.join(src, "log.csv"), newline="") as f:
        log = [(float(r["time_s"]), (float(r["t_air_c"]), float(r["t_mass_c"]))) for r in csv.DictReader(f)]
    e = max_state_error(read_states(out), [t for t, _ in log], [x for _, x in log])
    return float(e <= 0.03), "max |error| vs the commissioning log %.4f K (limit 0.03)" % e


def resim_case(rng):
    p = plant.random_building(rng)
    x0 = (round(rng.uniform(8.0, 24.0), 2), round(rng.uniform(8.0, 24.0), 2))
    steps = [30.0, 45.0, 60.0, 90.0, 100.0, 150.0, 240.0, 300.0, 420.0, 450.0, 600.0, 900.0, 1234.5]
    n = rng.randint(150, 300)
    times, t = [], float(rng.randint(0, 5) * 3600)
    for _ in range(n):
        times.append(t)
        t += rng.choice(steps)
    t_out, solar = plant.weather(rng, n, 300.0, rng.uniform(-10.0, 10.0), rng.uniform(1.0, 6.0), rng.uniform(100.0, 700.0))
    q = plant.excitation(rng, n, rng.uniform(2000.0, 10000.0), 300.0)
    kw = rng.random() < 0.5
    inputs = [(round(t_out[k], 2), round(q[k] / 1000.0, 3) * 1000.0 if kw else round(q[k], 1), round(solar[k], 1))
              for k in range(n)]
    cols = ["time_s", "t_out_c", "solar_w_m2", "heat_kw" if kw else "heat_w"]
    cols = [cols[i] for i in sorted(range(4), key=lambda _: rng.random())]
    lines = [",".join(cols)]
    for k in range(n):
        v = dict(time_s="%.1f" % times[k], t_out_c="%.2f" % inputs[k][0], solar_w_m2="%.1f" % inputs[k][2],
                 heat_kw="%.3f" % (inputs[k][1] / 1000.0), heat_w="%.1f" % inputs[k][1])
        lines.append(",".join(v[c] for c in cols))
    params = {k: p[k] for k in plant.PARAM_KEYS}
    params.update(t_air0_c=x0[0], t_mass0_c=x0[1])
    return params, "\n".join(lines) + "\n", times, plant.simulate(p, x0, times, inputs)


def hidden_resim():
    rng = random.Random("%d/resim" % SEED)
    scores, msgs = [], []
    for i in range(4):
        params, text, times, xs = generate(resim_case, rng)
        g.digest(text)
        d = os.path.join(TMP, "resim%d" % i)
        os.makedirs(d)
        with open(os.path.join(d, "params.json"), "w") as f:
            json.dump(params, f)
        with open(os.path.join(d, "inputs.csv"), "w") as f:
            f.write(text)
        out = os.path.join(d, "states.csv")
        code, _, _ = run(["python3", SIM, "--params", os.path.join(d, "params.json"), "--inputs",
                          os.path.join(d, "inputs.csv"), "--out", out], timeout=60)
        try:
            e = max_state_error(read_states(out), times, xs) if code == 0 else float("inf")
        except Exception:
            e = float("inf")
        scores.append(0.0 if math.isinf(e) else score_continuous(e, 0.002, 0.05))
        msgs.append("%.4g" % e)
    return sum(scores) / len(scores), "max |error| K per case: %s" % ", ".join(msgs)


def param_score(est, truth):
    """Worst parameter's score: each relative error within TOL, linear to 0 at 4 * TOL."""
    worst, errs = 1.0, []
    for k in plant.PARAM_KEYS:
        try:
            v = float(est[k])
            e = abs(v / truth[k] - 1.0)
            if e != e:
                raise ValueError
            s = score_continuous(e, TOL[k], 4 * TOL[k])
        except Exception:
            e, s = float("inf"), 0.0
        errs.append("%s %.3g" % (k.split("_")[1], e))
        worst = min(worst, s)
    return worst, ", ".join(errs)


def id_case(rng):
    p = plant.random_building(rng)
    h = rng.choice([300.0, 600.0, 900.0])
    rows = plant.id_log(rng, p, int(8 * 86400 / h), rng.uniform(3000.0, 12000.0), 0.015,
                        (rng.uniform(14.0, 20.0), rng.uniform(14.0, 20.0)), h)
    lines = ["time_s,t_out_c,solar_w_m2,heat_w,t_air_c,t_mass_c"] + ["%d,%.2f,%.1f,%.1f,%.3f,%.3f" % r for r in rows]
    return p, "\n".join(lines) + "\n"


def hidden_identify():
    rng = random.Random("%d/identify" % SEED)
    scores, msgs = [], []
    for i in range(3):
        p, text = generate(id_case, rng)
        g.digest(text)
        path = os.path.join(TMP, "id%d.csv" % i)
        with open(path, "w") as f:
            f.write(text)
        code, out, _ = run(["python3", IDENT, path], timeout=60)
        try:
            s, m = param_score(json.loads(out), p)
        except Exception as e:
            s, m = 0.0, "exit %d, no parameter JSON (%s)" % (code, type(e).__name__)
        scores.append(s)
        msgs.append(m)
    return sum(scores) / len(scores), " | ".join(msgs)


def site_identify():
    # The grader's own copy of the site log (the agent's /app/data is not read).
    src = os.path.join(HERE, "examples", "site", "log.csv")
    path = os.path.join(TMP, "site-log.csv")
    shutil.copyfile(src, path)
    code, out, _ = run(["python3", IDENT, path], timeout=60)
    try:
        return param_score(json.loads(out), plant.SITE)
    except Exception as e:
        return 0.0, "exit %d, no parameter JSON (%s)" % (code, type(e).__name__)


def control(mode, n):
    def fn():
        recs = []
        for i in range(n):
            key = "h%d-%d" % (SEED, i)
            setup = generate(plant.episode_setup, mode, key)
            g.digest(json.dumps([mode, setup["t_out"], setup["solar"], setup["lower"], setup["x0"]]))
            e_ref, d_ref = plant.reference(setup)
            setup = plant.episode_setup(mode, key)   # fresh sensor-noise stream
            r = plant.run_episode(setup, CTL)
            if r["outcome"] != "ok":
                recs.append((0.0, r["outcome"]))
                continue
            comfort = score_continuous(max(0.0, r["discomfort"] - d_ref), 0.2, 2.0)
            energy = score_continuous(max(0.0, r["energy"] / e_ref - 1.0), 0.06, 0.35)
            recs.append((comfort * energy, "E %.1f/%.1f kWh, D %.2f/%.2f K h" % (r["energy"], e_ref, r["discomfort"], d_ref)))
        return sum(s for s, _ in recs) / n, json.dumps([{"score": round(s, 4), "detail": m} for s, m in recs])
    return fn


g.check("public_reproduce", public_reproduce)
g.check("hidden_resim", hidden_resim)
g.check("hidden_identify", hidden_identify)
g.check("site_identify", site_identify)
g.check("control_plain", control("plain", 3))
g.check("hidden_control_cold", control("cold", 3))
g.check("hidden_control_noisy", control("noisy", 3))
g.finish()
