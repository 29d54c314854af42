import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/index.js";

const TASK = join(bundledTasksDir(), "exam-timetable");

/**
 * exam-timetable's reference search stops at the per-student floor or at its CPU budget (10 s).
 * Restarting only after 20,000 moves without a new best left a few instances in a hundred short
 * of the optimum when the budget ran out (oracle R = 0.907 at stress seed 784160695, whose second
 * `hidden_optimise` instance needed about 12 s; a sweep of 150 seeds: 2 past 10 s, one at 17 s).
 * With a fresh start after 5,000 such moves the same 150 seeds need at most 3.6 s; this instance
 * must reach its optimum well inside the budget.
 */
const SCRIPT = `
import csv, os, random, resource, subprocess, sys, tempfile
task = sys.argv[1]
sys.path.insert(0, os.path.join(task, "tests"))
import gen, judge
rng = random.Random("784160695|hidden_optimise")
for kind in ("optimise", "optimise4"):
    m, rows = gen.build(rng, kind)
    text = gen.render(m, rng, False)
d = tempfile.mkdtemp()
ip, op = os.path.join(d, "instance.ett"), os.path.join(d, "timetable.csv")
with open(ip, "wb") as f:
    f.write(text)
sol = os.path.join(task, "solution")
subprocess.run([sys.executable, os.path.join(sol, "examtt.py"), "solve", ip, op], check=True, env=dict(os.environ, PYTHONPATH=sol))
cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
with open(op, newline="") as f:
    got = [(r["exam"].strip(), int(r["day"]), int(r["slot"]), r["room"].strip(), int(r["seats"])) for r in csv.DictReader(f)]
print(judge.back_to_back(m, got), judge.lower_bound(m), "%.2f" % cpu)
`;

describe("exam-timetable's reference reaches the optimum well inside its CPU budget", () => {
  it("solves the instance it once left short of the optimum", { timeout: 120_000 }, () => {
    const r = spawnSync("/usr/bin/python3", ["-c", SCRIPT, TASK], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const [penalty, optimum, cpu] = r.stdout.trim().split(" ").map(Number);
    expect(penalty).toBe(optimum);
    expect(optimum).toBe(52);
    // Inside the 10 s budget with room to spare (about 4 s here), so a busier machine still makes it.
    expect(cpu).toBeLessThan(9);
  });
});
