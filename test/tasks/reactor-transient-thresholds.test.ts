import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/index.js";

const TASK = join(bundledTasksDir(), "reactor-kinetics-repro");

/**
 * reactor-kinetics-repro's generator answers a threshold's crossing time from the exact matrix
 * exponential on a grid. A stiff network's intermediate can rise past a threshold and fall back
 * within microseconds, far inside a uniform grid's first step: the generator once took such a
 * species' peak as 0, planted a "never reached" threshold of 0.01 and expected no crossing, while
 * the reference (an adaptive integrator) rightly found one at 4.5 µs (oracle R = 0.992 at stress
 * seeds 1976887383 and 1993665002, two of eight in a sweep). The grid now resolves the fastest
 * rate; on those seeds the reference's crossing times must match the planned ones.
 */
const SCRIPT = `
import csv, json, os, random, subprocess, sys
task, app, work = sys.argv[1], sys.argv[2], sys.argv[3]
sys.path.insert(0, os.path.join(task, "tests"))
import gen
out = []
for seed in json.loads(sys.argv[4]):
    rng = random.Random("%d/stiff" % seed)
    for i in range(3):
        files, exp = gen.build(rng, "stiff")
        d = os.path.join(work, "%d-%d" % (seed, i))
        for name, data in files.items():
            p = os.path.join(d, name)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "wb") as f:
                f.write(data)
        subprocess.run([sys.executable, os.path.join(app, "rxsim.py"), d, d + "-out"], check=True)
        with open(os.path.join(d + "-out", "events.csv"), newline="") as f:
            got = {r["run"]: (r["t_cross"] or "").strip() for r in csv.DictReader(f)}
        for e in exp["runs"]:
            if e["event"] is None:
                continue
            want, t = e["event"][2], got.get(e["id"])
            right = t == "" if want is None else t not in (None, "") and abs(float(t) - want) <= 2e-4 * want + 1e-9 * e["times"][-1]
            if not right:
                out.append("seed %d case %d %s: crossing %r, planned %r" % (seed, i, e["id"], t, want))
print(json.dumps(out))
`;

describe("reactor-kinetics-repro plans crossing times that a stiff run's transients cannot hide", () => {
  const work = mkdtempSync(join(tmpdir(), "longhaul-reactor-"));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it("the reference finds the planned crossing on every stiff run of seeds it once failed", {
    timeout: 120_000,
  }, () => {
    // The repaired program as solution/solve.sh leaves it: the environment's /app, the solution's files in.
    const app = join(work, "app");
    cpSync(join(TASK, "environment"), app, { recursive: true });
    for (const f of ["mechanism.py", "rates.py", "integrate.py"]) {
      cpSync(join(TASK, "solution", f), join(app, "kinetics", f));
    }
    cpSync(join(TASK, "solution", "rxsim.py"), join(app, "rxsim.py"));
    expect(readdirSync(join(app, "kinetics"))).toContain("integrate.py");
    const seeds = [1976887383, 1993665002];
    const r = spawnSync("/usr/bin/python3", ["-c", SCRIPT, TASK, app, work, JSON.stringify(seeds)], {
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
  });
});
