import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bundledTasksDir } from "../../src/runner/package-root.js";

/** Runs a grade script against the bundled tasks' shared lh.py (identical in every task), on the host. */
function grade(env: Record<string, string>): {
  ran: string[];
  reward: Record<string, number>;
  msgs: Record<string, string>;
} {
  const out = mkdtempSync(join(tmpdir(), "lh-stop-"));
  const script = `
import sys
sys.path.insert(0, ${JSON.stringify(join(bundledTasksDir(), "station-qc", "tests"))})
import lh
lh.rubric_ids = lambda: (["free", "first", "second", "third"], {"free": 0.0, "first": 1.0, "second": 1.0, "third": 1.0})
g = lh.Grader()
ran = []
def chk(name, score):
    def fn():
        ran.append(name)
        return score
    return fn
g.check("free", chk("free", 0.0))
g.check("first", chk("first", 1.0))
g.check("second", chk("second", 0.5))
g.check("third", chk("third", 1.0))
g.finish()
print(",".join(ran))
`;
  const stdout = execFileSync("/usr/bin/python3", ["-I", "-c", script], {
    env: { PATH: "/usr/bin:/bin", LONGHAUL_VERIFIER_DIR: out, ...env },
    encoding: "utf8",
  });
  const details = JSON.parse(readFileSync(join(out, "reward-details.json"), "utf8")) as {
    subtasks: Record<string, { message: string }>;
  };
  return {
    ran: (stdout.trim().split("\n").pop() ?? "").split(","),
    reward: JSON.parse(readFileSync(join(out, "reward.json"), "utf8")) as Record<string, number>,
    msgs: Object.fromEntries(Object.entries(details.subtasks).map(([k, v]) => [k, v.message])),
  };
}

describe("bundled graders' lh.py under LONGHAUL_STOP_AT_FIRST_FAILURE", () => {
  it("runs every check without it", () => {
    const r = grade({});
    expect(r.ran).toEqual(["free", "first", "second", "third"]);
    expect(r.reward.third).toBe(1);
  });

  it("stops after the first weighted subtask below 1, and R stays below 1", () => {
    const r = grade({ LONGHAUL_STOP_AT_FIRST_FAILURE: "1" });
    // The weight-0 failure settles nothing about R; "second" does.
    expect(r.ran).toEqual(["free", "first", "second"]);
    expect(r.reward.third).toBe(0);
    expect(r.msgs.third).toMatch(/^not run/);
    expect(r.reward.reward).toBeLessThan(1);
  });

  it("under LONGHAUL_STOP_BELOW, stops once R below the threshold is certain, and not before", () => {
    // "second" loses 0.5 of 3: R ≤ 0.833 from then on.
    const stopped = grade({ LONGHAUL_STOP_BELOW: "0.95" });
    expect(stopped.ran).toEqual(["free", "first", "second"]);
    expect(stopped.msgs.third).toMatch(/^not run: R < 0.95/);
    expect(stopped.reward.reward).toBeLessThan(0.95);
    // 0.833 ≥ 0.8: nothing is settled, so every check runs and R is the full run's.
    const full = grade({ LONGHAUL_STOP_BELOW: "0.8" });
    expect(full.ran).toEqual(["free", "first", "second", "third"]);
    expect(full.reward.reward).toBeCloseTo(2.5 / 3, 9);
  });
});
