"""The grader's own plant: exact zero-order-hold solution of the two-node zone model (Sylvester's
formula for the 2x2 matrix exponential and its integral), seeded buildings, weather and schedules,
the reference policy that sets each episode's energy yardstick, and the episode runner.

Nothing here integrates numerically: every step is the closed-form solution of the linear ODE with
inputs held constant over the step, so it is an independent route to what a repaired simulator
must compute with its own integrator.
"""
import json, math, os, random, subprocess, threading, time
try:
    # Under the grader: what the program prints is read as its output (lh.candidate_output), so
    # the grader's time spent on a flood of it is held against the program, not the grader.
    from lh import candidate_output
except ImportError:  # run on its own, outside the grader
    def candidate_output(stream):
        return stream

SITE = dict(c_air_j_per_k=3.1e6, c_mass_j_per_k=3.6e7, r_am_k_per_w=1 / 650.0,
            r_ao_k_per_w=1 / 140.0, solar_aperture_m2=4.2)
SITE_QMAX = 8000.0
PARAM_KEYS = ("c_air_j_per_k", "c_mass_j_per_k", "r_am_k_per_w", "r_ao_k_per_w", "solar_aperture_m2")
DT = 300.0
HORIZON = 72
STEPS = 576
STALL = 30.0


def _mats(p):
    ca, cm = p["c_air_j_per_k"], p["c_mass_j_per_k"]
    g1, g2 = 1.0 / p["r_am_k_per_w"], 1.0 / p["r_ao_k_per_w"]
    a = ((-(g1 + g2) / ca, g1 / ca), (g1 / cm, -g1 / cm))
    # Input columns: outdoor temperature, heater power, solar irradiance.
    b = ((g2 / ca, 1.0 / ca, p["solar_aperture_m2"] / ca), (0.0, 0.0, 0.0))
    return a, b


def _eig(a):
    tr = a[0][0] + a[1][1]
    det = a[0][0] * a[1][1] - a[0][1] * a[1][0]
    disc = math.sqrt(max(tr * tr / 4.0 - det, 0.0))
    return tr / 2.0 + disc, tr / 2.0 - disc


def _phi(lam, h):
    x = lam * h
    if abs(x) < 1e-8:
        return h * (1.0 + x / 2.0)
    return math.expm1(x) / lam


def discretize(p, h):
    """(Ad, Gd): x(t+h) = Ad x(t) + Gd u for inputs u = (t_out, q, solar) held over the step."""
    a, b = _mats(p)
    l1, l2 = _eig(a)
    m1 = [[a[i][j] - (l2 if i == j else 0.0) for j in range(2)] for i in range(2)]
    m2 = [[a[i][j] - (l1 if i == j else 0.0) for j in range(2)] for i in range(2)]
    e1, e2 = math.exp(l1 * h), math.exp(l2 * h)
    f1, f2 = _phi(l1, h), _phi(l2, h)
    d = l1 - l2
    ad = [[(e1 * m1[i][j] - e2 * m2[i][j]) / d for j in range(2)] for i in range(2)]
    integ = [[(f1 * m1[i][j] - f2 * m2[i][j]) / d for j in range(2)] for i in range(2)]
    gd = [[sum(integ[i][k] * b[k][j] for k in range(2)) for j in range(3)] for i in range(2)]
    return ad, gd


def step(disc, x, u):
    ad, gd = disc
    return [ad[i][0] * x[0] + ad[i][1] * x[1] + sum(gd[i][j] * u[j] for j in range(3)) for i in range(2)]


def simulate(p, x0, times, inputs):
    """States at every time; inputs[k] = (t_out, q, solar) held over [times[k], times[k+1])."""
    xs, x, cache = [list(x0)], list(x0), {}
    for k in range(len(times) - 1):
        h = times[k + 1] - times[k]
        if h not in cache:
            cache[h] = discretize(p, h)
        x = step(cache[h], x, inputs[k])
        xs.append(x)
    return xs


def random_building(rng):
    return dict(c_air_j_per_k=rng.uniform(1.5e6, 6e6), c_mass_j_per_k=rng.uniform(1.5e7, 8e7),
                r_am_k_per_w=1.0 / rng.uniform(300, 1400), r_ao_k_per_w=1.0 / rng.uniform(80, 300),
                solar_aperture_m2=rng.uniform(1.0, 8.0))


def weather(rng, n, h, mean, amp, peak):
    """Outdoor temperature and irradiance per interval of length h starting at midnight."""
    t_out, solar, ar = [], [], 0.0
    clouds = [rng.uniform(0.15, 1.0) for _ in range(n * int(h) // 86400 + 2)]
    for k in range(n):
        hour = (k * h / 3600.0) % 24.0
        day = int(k * h // 86400)
        ar = 0.98 * ar + rng.gauss(0, 0.12)
        t_out.append(mean + amp * math.sin(2 * math.pi * (hour - 9.0) / 24.0) + ar)
        s = peak * clouds[day] * max(0.0, math.sin(math.pi * (hour - 7.5) / 9.5)) if 7.5 < hour < 17.0 else 0.0
        solar.append(max(0.0, s * (1.0 + rng.uniform(-0.15, 0.15))))
    return t_out, solar


def excitation(rng, n, qmax, h=300.0):
    """Heater power of an identification run: random levels held 30 min to 3 h."""
    q = []
    while len(q) < n:
        level = rng.choice([0.0, 0.0, rng.uniform(0.1, 1.0) * qmax, qmax])
        q.extend([level] * max(1, int(rng.randint(1800, 10800) // h)))
    return q[:n]


def id_log(rng, p, n, qmax, noise, x0, h):
    """An identification run: inputs and noisy measured states, as rows of floats."""
    t_out, solar = weather(rng, n, h, rng.uniform(-4.0, 9.0), rng.uniform(2.0, 6.0), rng.uniform(250.0, 650.0))
    q = excitation(rng, n, qmax, h)
    inputs = [(round(t_out[k], 2), round(q[k], 1), round(solar[k], 1)) for k in range(n)]
    times = [h * k for k in range(n)]
    xs = simulate(p, x0, times, inputs)
    return [(times[k], inputs[k][0], inputs[k][2], inputs[k][1],
             round(xs[k][0] + rng.gauss(0, noise), 3), round(xs[k][1] + rng.gauss(0, noise), 3)) for k in range(n)]


# ---------------------------------------------------------------- episodes

MODES = {
    "plain": dict(mean=(1.0, 8.0), amp=(2.0, 5.0), peak=(150.0, 450.0), noise=0.0, drop=0.0),
    "cold": dict(mean=(-16.0, -9.0), amp=(1.5, 4.0), peak=(40.0, 180.0), noise=0.0, drop=0.0),
    "noisy": dict(mean=(-4.0, 5.0), amp=(2.0, 5.0), peak=(100.0, 400.0), noise=0.12, drop=0.1),
}


def episode_setup(mode, seed):
    rng = random.Random("thermal/%s/%s" % (mode, seed))
    m = MODES[mode]
    n = STEPS + HORIZON
    t_out, solar = weather(rng, n, DT, rng.uniform(*m["mean"]), rng.uniform(*m["amp"]), rng.uniform(*m["peak"]))
    lower, upper = [], []
    days = [(rng.uniform(6.0, 9.0), rng.uniform(16.5, 20.0), round(rng.uniform(20.0, 21.5), 1)) for _ in range(n * int(DT) // 86400 + 2)]
    for k in range(n + 1):
        hour = (k * DT / 3600.0) % 24.0
        start, end, lo = days[int(k * DT // 86400)]
        occ = start <= hour < end
        lower.append(lo if occ else 15.0)
        upper.append(24.0 if occ else 28.0)
    x0 = [rng.uniform(15.5, 18.0), 0.0]
    x0[1] = x0[0] + rng.uniform(-0.5, 1.0)
    return dict(t_out=t_out, solar=solar, lower=lower, upper=upper, x0=x0, noise=m["noise"], drop=m["drop"], rng=rng)


def reference(setup, p=SITE, qmax=SITE_QMAX):
    """Latest-possible heating with exact knowledge: each step the least power such that full power
    afterwards still meets every lower bound within the horizon. Returns (energy_kwh, discomfort_kh)."""
    disc = discretize(p, DT)
    x, energy, dis = list(setup["x0"]), 0.0, 0.0
    # Response of the air temperature to one step of unit power, j steps after that step.
    slope, xu = [], [disc[1][0][1], disc[1][1][1]]
    for j in range(HORIZON):
        slope.append(xu[0])
        xu = [disc[0][i][0] * xu[0] + disc[0][i][1] * xu[1] for i in range(2)]
    for k in range(STEPS):
        need = 0.0
        # The air temperature j steps ahead is affine in this step's power q: xa_j + q * slope[j].
        xa = step(disc, x, (setup["t_out"][k], 0.0, setup["solar"][k]))
        for j in range(HORIZON):
            lo_bound = setup["lower"][k + 1 + j]
            if xa[0] < lo_bound:
                need = max(need, (lo_bound - xa[0]) / slope[j])
            xa = step(disc, xa, (setup["t_out"][k + 1 + j], qmax, setup["solar"][k + 1 + j]))
        q = min(qmax, need)
        x = step(disc, x, (setup["t_out"][k], q, setup["solar"][k]))
        energy += q * DT / 3.6e6
        dis += band_violation(x[0], setup["lower"][k + 1], setup["upper"][k + 1])
    return energy, dis


def band_violation(t, lo, hi):
    return (max(0.0, lo - t) + max(0.0, t - hi)) * DT / 3600.0


def cpu_seconds(pid):
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += sum(int(v) for v in fields[11:15]) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            if p == pid:
                return None
            continue
        try:
            for tid in os.listdir("/proc/%d/task" % p):
                with open("/proc/%d/task/%s/children" % (p, tid)) as f:
                    todo.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            pass
    return total


def run_episode(setup, cmd, cpu_budget=20.0, p=SITE, qmax=SITE_QMAX):
    """Runs one controller process over JSON lines on the exact plant. Returns a record with the
    energy (kWh), discomfort (K h) and an outcome; a controller that stops answering gets
    outcome != "ok"."""
    disc = discretize(p, DT)
    rng = setup["rng"]
    x = list(setup["x0"])
    energy, dis, outcome = 0.0, 0.0, "ok"
    t0 = time.time()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, bufsize=1)
        out = candidate_output(proc.stdout)
    except Exception as e:
        return dict(outcome="controller did not start: %s" % e, energy=0.0, discomfort=0.0)
    last, done = [time.time()], threading.Event()

    def watchdog():
        while not done.wait(0.5):
            if time.time() - last[0] > STALL:
                proc.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def send(o):
        proc.stdin.write(json.dumps(o) + "\n")
        proc.stdin.flush()

    def sensor(v):
        if setup["drop"] and rng.random() < setup["drop"]:
            return None
        if setup["noise"]:
            v += rng.gauss(0.0, setup["noise"])
        return round(v, 3)

    try:
        send(dict(type="init", dt_s=DT, steps=STEPS, horizon=HORIZON, q_max_w=qmax))
        for k in range(STEPS):
            obs = dict(type="obs", step=k, time_s=k * DT, t_air_c=sensor(x[0]), t_mass_c=sensor(x[1]),
                       t_out_c=[round(v, 3) for v in setup["t_out"][k:k + HORIZON]],
                       solar_w_m2=[round(v, 2) for v in setup["solar"][k:k + HORIZON]],
                       lower_c=setup["lower"][k + 1:k + 1 + HORIZON],
                       upper_c=setup["upper"][k + 1:k + 1 + HORIZON])
            send(obs)
            line = out.readline()
            last[0] = time.time()
            used = cpu_seconds(proc.pid)
            if not line or (used if used is not None else last[0] - t0) > cpu_budget:
                outcome = "controller stopped answering at step %d" % k
                break
            try:
                q = float(json.loads(line)["heat_w"])
                if q != q:
                    raise ValueError("NaN")
                q = min(qmax, max(0.0, q))
            except Exception:
                outcome = "bad answer at step %d: %r" % (k, line[:80])
                break
            x = step(disc, x, (setup["t_out"][k], q, setup["solar"][k]))
            energy += q * DT / 3.6e6
            dis += band_violation(x[0], setup["lower"][k + 1], setup["upper"][k + 1])
        try:
            send(dict(type="end"))
        except Exception:
            pass
    except (BrokenPipeError, OSError):
        outcome = "controller closed the pipe"
    finally:
        done.set()
        try:
            proc.stdin.close()
        except Exception:
            pass
        try:
            proc.wait(timeout=2)
        except Exception:
            proc.kill()
    return dict(outcome=outcome, energy=energy, discomfort=dis)
