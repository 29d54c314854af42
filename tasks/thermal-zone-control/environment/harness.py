#!/usr/bin/env python3
"""Practice episode for a controller on the thermsim model.

  python3 /app/harness.py --params P.json [--seed N] [--noise SIGMA] [--verbose] -- python3 /app/controller.py

The plant is thermsim itself with the parameters in P.json (so it is only as right as thermsim and
those parameters). Weather and the occupancy band are a simple seeded pattern.
"""
import argparse, json, math, os, random, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from thermsim import read_params  # noqa: E402
from thermsim.integrate import advance  # noqa: E402
from thermsim.model import Inputs  # noqa: E402

DT, STEPS, HORIZON, QMAX = 300.0, 576, 72, 8000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--params", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--noise", type=float, default=0.0)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    with open(a.params) as f:
        d = json.load(f)
    d.setdefault("t_air0_c", 17.0)
    d.setdefault("t_mass0_c", 17.0)
    tmp = "/tmp/harness-params.json"
    with open(tmp, "w") as f:
        json.dump(d, f)
    p, x = read_params(tmp)
    rng = random.Random(a.seed)
    n = STEPS + HORIZON
    mean = rng.uniform(-12, 8)
    t_out = [mean + 4 * math.sin(2 * math.pi * ((k * DT / 3600) % 24 - 9) / 24) for k in range(n)]
    solar = [300 * max(0.0, math.sin(math.pi * ((k * DT / 3600) % 24 - 7.5) / 9.5)) if 7.5 < (k * DT / 3600) % 24 < 17 else 0.0
             for k in range(n)]
    occ = [7.0 <= (k * DT / 3600) % 24 < 18.0 for k in range(n + 1)]
    lower = [20.5 if o else 15.0 for o in occ]
    upper = [24.0 if o else 28.0 for o in occ]
    proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(o):
        proc.stdin.write(json.dumps(o) + "\n")
        proc.stdin.flush()

    def sensor(v):
        return round(v + rng.gauss(0, a.noise), 3) if a.noise else round(v, 3)

    energy = discomfort = 0.0
    send(dict(type="init", dt_s=DT, steps=STEPS, horizon=HORIZON, q_max_w=QMAX))
    for k in range(STEPS):
        send(dict(type="obs", step=k, time_s=k * DT, t_air_c=sensor(x[0]), t_mass_c=sensor(x[1]),
                  t_out_c=t_out[k:k + HORIZON], solar_w_m2=solar[k:k + HORIZON],
                  lower_c=lower[k + 1:k + 1 + HORIZON], upper_c=upper[k + 1:k + 1 + HORIZON]))
        q = min(QMAX, max(0.0, float(json.loads(proc.stdout.readline())["heat_w"])))
        x = advance(p, x, Inputs(t_out=t_out[k], heat=q, solar=solar[k]), DT)
        energy += q * DT / 3.6e6
        discomfort += (max(0.0, lower[k + 1] - x[0]) + max(0.0, x[0] - upper[k + 1])) * DT / 3600
        if a.verbose:
            print("%4d T_a=%6.2f T_m=%6.2f Q=%7.1f band=[%g, %g]" % (k, x[0], x[1], q, lower[k + 1], upper[k + 1]), file=sys.stderr)
    send(dict(type="end"))
    proc.stdin.close()
    proc.wait()
    print(json.dumps(dict(energy_kwh=round(energy, 3), discomfort_kh=round(discomfort, 3))))


if __name__ == "__main__":
    main()
