#!/usr/bin/env python3
"""2-D lunar-lander simulator. Runs a pilot program over JSON lines, one episode per process.

  python3 lander.py --mode plain|wind|noise|lowfuel --seed N [--verbose] -- python3 /app/pilot.py
"""
import argparse, json, math, os, random, subprocess, sys, threading, time
try:
    # Under the grader: what the program prints is read as its output (lh.candidate_output), so
    # the grader's time spent on a flood of it is held against the program, not the grader.
    from lh import candidate_output
except ImportError:  # run on its own, outside the grader
    def candidate_output(stream):
        return stream

DT = 0.1
MAX_STEPS = 1200
STALL = 30.0  # wall seconds one answer may take before the pilot counts as hung


def cpu_seconds(pid):
    """CPU time (user + system) the process and everything it started have used so far (a pilot
    may run behind a wrapper); None where /proc is unavailable."""
    total, todo, seen = 0.0, [pid], set()
    while todo:
        p = todo.pop()
        if p in seen:
            continue
        seen.add(p)
        try:
            with open("/proc/%d/stat" % p) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            # Own time plus that of children already reaped.
            total += sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")
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


def params(mode, seed):
    rng = random.Random("lander/%s/%s" % (mode, seed))
    g = rng.uniform(1.2, 3.8) if mode not in ("lowfuel", "wind") else rng.uniform(2.5, 4.5)
    p = dict(gravity=round(g, 3), max_accel=round(g * rng.uniform(2.6, 3.4), 3), dt=DT, max_steps=MAX_STEPS,
             pad_x=round(rng.uniform(-80, 80), 2), pad_half_width=round(rng.uniform(4, 8) if mode != "wind" else rng.uniform(2.0, 3.5), 2), burn_rate=1.0,
             max_angle=0.5, safe_vy=2.0, safe_vx=1.0)
    p["fuel"] = 40.0 if mode != "lowfuel" else None
    x0 = p["pad_x"] + rng.uniform(-60, 60)
    s = dict(x=x0, y=rng.uniform(60, 140), vx=rng.uniform(-4, 4), vy=rng.uniform(-6, 0))
    if mode == "lowfuel":
        # Budget: hovering-equivalent fuel for a brisk descent, plus a margin a careful pilot needs.
        descent_s = s["y"] / 4.0 + abs(x0 - p["pad_x"]) / 12.0
        p["fuel"] = round(descent_s * g / p["max_accel"] * 1.05 + 1.0, 2)
    wind = dict(base=rng.choice([-1, 1]) * rng.uniform(0.2, 0.35) * g if mode == "wind" else 0.0, gust=0.09 * g if mode == "wind" else 0.0)
    noise = dict(pos=1.0 if mode == "noise" else 0.0, vel=0.5 if mode == "noise" else 0.0, drop=0.06 if mode == "noise" else 0.0)
    return p, s, wind, noise, rng


def run_episode(mode, seed, cmd, verbose=False, timeout=20.0):
    """timeout: CPU seconds the pilot may use in the episode (wall time where /proc is missing). CPU
    time, because on a loaded machine each answer waits for a time slice and wall time stretches."""
    p, s, wind, noise, rng = params(mode, seed)
    fuel, gust = p["fuel"], 0.0
    t0 = time.time()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        out = candidate_output(proc.stdout)
    except Exception as e:
        return dict(score=0.0, outcome="pilot did not start: %s" % e)
    outcome, score = "timeout", 0.0
    last, done = [time.time()], threading.Event()

    def watchdog():  # a pilot that never answers would block readline forever
        while not done.wait(0.5):
            if time.time() - last[0] > STALL:
                proc.kill()
                return

    threading.Thread(target=watchdog, daemon=True).start()

    def send(o):
        proc.stdin.write(json.dumps(o) + "\n")
        proc.stdin.flush()

    try:
        send(dict(type="init", **p))
        for k in range(MAX_STEPS):
            obs = dict(type="obs", step=k, x=s["x"] + rng.gauss(0, noise["pos"]) if noise["pos"] else s["x"],
                       y=s["y"] + rng.gauss(0, noise["pos"]) if noise["pos"] else s["y"],
                       vx=s["vx"] + rng.gauss(0, noise["vel"]) if noise["vel"] else s["vx"],
                       vy=s["vy"] + rng.gauss(0, noise["vel"]) if noise["vel"] else s["vy"], fuel=fuel)
            obs = {key: (round(v, 4) if isinstance(v, float) else v) for key, v in obs.items()}
            if noise["drop"]:
                for key in ("x", "y", "vx", "vy"):
                    if rng.random() < noise["drop"]:
                        obs[key] = None  # sensor dropout
            send(obs)
            line = out.readline()
            last[0] = time.time()
            used = cpu_seconds(proc.pid)
            if not line or (used if used is not None else last[0] - t0) > timeout:
                outcome = "pilot stopped answering at step %d" % k
                break
            try:
                a = json.loads(line)
                thrust = min(1.0, max(0.0, float(a["thrust"])))
                ang = min(p["max_angle"], max(-p["max_angle"], float(a["angle"])))
            except Exception:
                thrust, ang = 0.0, 0.0
            if fuel <= 0:
                thrust = 0.0
            fuel = max(0.0, fuel - thrust * p["burn_rate"] * DT)
            gust = gust * 0.97 + rng.gauss(0, wind["gust"]) * 0.25
            ax = thrust * p["max_accel"] * math.sin(ang) + wind["base"] + gust
            ay = thrust * p["max_accel"] * math.cos(ang) - p["gravity"]
            s["vx"] += ax * DT
            s["vy"] += ay * DT
            s["x"] += s["vx"] * DT
            s["y"] += s["vy"] * DT
            if verbose:
                print("%4d x=%8.2f y=%7.2f vx=%6.2f vy=%6.2f fuel=%6.2f T=%.2f a=%.2f" % (k, s["x"], s["y"], s["vx"], s["vy"], fuel, thrust, ang), file=sys.stderr)
            if s["y"] <= 0:
                soft = abs(s["vy"]) <= p["safe_vy"] and abs(s["vx"]) <= p["safe_vx"]
                on_pad = abs(s["x"] - p["pad_x"]) <= p["pad_half_width"]
                score = 1.0 if soft and on_pad else 0.4 if soft else 0.0
                outcome = "landed on pad" if score == 1 else "landed off pad" if soft else "crashed"
                break
        try:
            send(dict(type="end", outcome=outcome, score=score))
        except Exception:
            pass
    except (BrokenPipeError, OSError):
        outcome = "pilot closed the pipe"
    finally:
        done.set()
        try:
            proc.stdin.close()
        except Exception:
            pass
        try:
            proc.wait(timeout=1)
        except Exception:
            proc.kill()
    return dict(score=score, outcome=outcome, touchdown=dict(x=round(s["x"], 3), vx=round(s["vx"], 3), vy=round(s["vy"], 3)),
                fuel_left=round(fuel, 3) if fuel is not None else None, pad_x=p["pad_x"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", default="plain", choices=["plain", "wind", "noise", "lowfuel"])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd and a.cmd[0] == "--" else a.cmd
    print(json.dumps(run_episode(a.mode, a.seed, cmd or ["python3", "/app/pilot.py"], a.verbose)))
