import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { runDeadline } from "../../src/runner/verifier-mounts.js";
import { kitPath } from "../../src/task/verifier-kit.js";

type Graded = {
  printed: string[];
  reward: Record<string, number>;
  details: { subtasks: Record<string, { message: string }>; run_deadline_reached?: boolean };
  seconds: number;
};

/**
 * A grader on the canonical kit whose candidate program hangs: "slow" calls it with a 60 s limit
 * and swallows every Exception around the call, as careless graders do; "after" would call it
 * again; "outside" is a call made outside any subtask. On the host, unsealed: lh.run itself must
 * keep the deadline.
 */
function gradeHanging(deadlineIn: number | null): Graded {
  const out = mkdtempSync(join(tmpdir(), "lh-deadline-"));
  const script = `
import sys, time
sys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})
import lh
lh.rubric_ids = lambda: (["quick", "slow", "after"], {"quick": 1.0, "slow": 1.0, "after": 1.0})
HANG = ["python3", "-c", "import time; time.sleep(60)"]
g = lh.Grader()
g.check("quick", lambda: (1.0, "no program"))
def slow():
    for _ in range(3):
        try:
            code, _, err = lh.run(HANG, timeout=60)
        except Exception:
            pass
    return 1.0, "never reached when the deadline is near"
g.check("slow", slow)
g.check("after", lambda: (1.0 if lh.run(["true"])[0] == 0 else 0.0, "ran"))
print("outside", lh.run(HANG, timeout=1)[2])
g.finish()
`;
  const env: Record<string, string> = {
    PATH: "/usr/bin:/bin",
    LONGHAUL_VERIFIER_DIR: out,
    LONGHAUL_WORKDIR: out,
  };
  if (deadlineIn !== null) env.LONGHAUL_RUN_DEADLINE = String(Math.floor(Date.now() / 1000) + deadlineIn);
  const t0 = performance.now();
  const stdout = execFileSync("/usr/bin/python3", ["-I", "-c", script], { env, encoding: "utf8" });
  return {
    printed: stdout.trim().split("\n"),
    reward: JSON.parse(readFileSync(join(out, "reward.json"), "utf8")) as Record<string, number>,
    details: JSON.parse(readFileSync(join(out, "reward-details.json"), "utf8")) as Graded["details"],
    seconds: (performance.now() - t0) / 1000,
  };
}

/**
 * Runs a grader on the canonical kit (`lh` imported), `out` its verifier folder and workdir, with
 * a run deadline `deadlineIn` seconds away.
 */
function runGrader(body: string, out: string, deadlineIn: number) {
  const script = `import sys\nsys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})\nimport lh\n${body}`;
  const env = {
    PATH: "/usr/bin:/bin",
    LONGHAUL_VERIFIER_DIR: out,
    LONGHAUL_WORKDIR: out,
    LONGHAUL_RUN_DEADLINE: String(Math.floor(Date.now() / 1000) + deadlineIn),
  };
  return spawnSync("/usr/bin/python3", ["-I", "-c", script], { env, encoding: "utf8" });
}

describe("the verifier kit's run deadline (LONGHAUL_RUN_DEADLINE)", () => {
  it("stops a hanging candidate at the deadline, scores what was reached and says why", () => {
    const r = gradeHanging(3);
    // Three 60 s calls would take 180 s; the deadline ends them after about 3.
    expect(r.seconds).toBeLessThan(15);
    expect(r.reward).toMatchObject({ quick: 1, slow: 0, after: 0 });
    expect(r.reward.reward).toBeCloseTo(1 / 3, 9);
    expect(r.details.subtasks.slow?.message).toMatch(/^stopped: the time for candidate programs ran out/);
    expect(r.details.subtasks.after?.message).toMatch(/^not run: the time for candidate programs ran out/);
    expect(r.details.run_deadline_reached).toBe(true);
    // Outside a subtask a call is not made, and the caller gets a timeout instead of an exception.
    expect(r.printed).toContain(
      "outside not run: the time for candidate programs ran out (LONGHAUL_RUN_DEADLINE)",
    );
  });

  it("calls it a grading error, not the candidate's 0, when the grader itself used the time", () => {
    const out = mkdtempSync(join(tmpdir(), "lh-deadline-busy-"));
    const script = `
import sys, time
sys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})
import lh
lh.rubric_ids = lambda: (["slow_grader", "next"], {"slow_grader": 1.0, "next": 1.0})
g = lh.Grader()
def busy():
    end = time.time() + 4
    while time.time() < end:  # the grader's own work: no candidate program runs
        sum(range(1000))
    return 1.0
g.check("slow_grader", busy)
g.check("next", lambda: (1.0 if lh.run(["true"])[0] == 0 else 0.0, "ran"))
g.finish()
`;
    const env = {
      PATH: "/usr/bin:/bin",
      LONGHAUL_VERIFIER_DIR: out,
      LONGHAUL_WORKDIR: out,
      LONGHAUL_RUN_DEADLINE: String(Math.floor(Date.now() / 1000) + 2),
    };
    let status = 0;
    let stderr = "";
    try {
      execFileSync("/usr/bin/python3", ["-I", "-c", script], { env, encoding: "utf8", stdio: "pipe" });
    } catch (e) {
      const err = e as { status: number; stderr: string };
      status = err.status;
      stderr = err.stderr;
    }
    expect(status).toBe(88);
    expect(stderr).toMatch(/grading error: the run deadline passed while the grader itself was busy/);
    // No reward is written: the host records a grading error.
    expect(existsSync(join(out, "reward.json"))).toBe(false);
  });

  it("holds the grader's work on a flood of candidate output against the candidate, not the grader", () => {
    // The candidate floods stdout (32 MB a call, the kit's cap) and the grader parses every line:
    // the grader is busy nearly all the time, but on what the candidate chose to print. Counting
    // that as the grader's own work would turn the candidate's 0 into a grading error (exit 88).
    const out = mkdtempSync(join(tmpdir(), "lh-deadline-flood-"));
    const r = runGrader(
      `import json
lh.rubric_ids = lambda: (["flooded"], {"flooded": 1.0})
FLOOD = ["python3", "-c", "import sys; sys.stdout.write('{\\"a\\": 1, \\"b\\": [1.5, 2.5, \\"x\\"]}\\\\n' * 1000000)"]
g = lh.Grader()
def flooded():
    for _ in range(50):
        code, text, _ = lh.run(FLOOD, timeout=30)
        rows = [json.loads(line) for line in text.splitlines()]
        assert code == 0 and len(rows) == 1000000, (code, len(rows))
    return 1.0
g.check("flooded", flooded)
g.finish()
`,
      out,
      4,
    );
    expect(r.stderr).not.toMatch(/grading error/);
    expect(r.status).toBe(0);
    const reward = JSON.parse(readFileSync(join(out, "reward.json"), "utf8")) as Record<string, number>;
    expect(reward.flooded).toBe(0);
    const details = JSON.parse(readFileSync(join(out, "reward-details.json"), "utf8")) as Graded["details"];
    expect(details.run_deadline_reached).toBe(true);
    expect(details.subtasks.flooded?.message).toMatch(/^stopped: the time for candidate programs ran out/);
  });

  it("holds a flood an episode program prints against it when the grader reads it through candidate_output", () => {
    // Graders that talk to a program started from sealed_argv (a referee) read its stdout
    // themselves. Read raw, the time spent parsing a flood of answers is the grader's own and
    // the candidate's 0 becomes a grading error (exit 88); read through candidate_output it is
    // counted as the candidate's output, as run()'s is.
    const grade = (counted: boolean): { status: number | null; stderr: string; out: string } => {
      const out = mkdtempSync(join(tmpdir(), "lh-deadline-episode-"));
      const r = runGrader(
        `import json, subprocess
lh.rubric_ids = lambda: (["episodes", "after"], {"episodes": 1.0, "after": 1.0})
FLOOD = ["python3", "-c", "import sys\\nwhile True: sys.stdout.write('{\\"a\\": 1, \\"b\\": [1.5, 2.5, \\"x\\"]}\\\\n' * 10000)"]
READ = lh.candidate_output if ${counted ? "True" : "False"} else (lambda stream: stream)
g = lh.Grader()
def episodes():
    while lh.time_left() > 0:
        p = subprocess.Popen(lh.sealed_argv(FLOOD), stdout=subprocess.PIPE, text=True)
        answers = READ(p.stdout)
        for _ in range(100000):
            json.loads(answers.readline())
        p.kill()
        p.wait()
    return 0.0, "every episode lost"
g.check("episodes", episodes)
g.check("after", lambda: 1.0)
g.finish()
`,
        out,
        4,
      );
      return { status: r.status, stderr: r.stderr, out };
    };
    const raw = grade(false);
    expect(raw.stderr).toMatch(/grading error: the run deadline passed while the grader itself was busy/);
    expect(raw.status).toBe(88);
    const counted = grade(true);
    expect(counted.stderr).not.toMatch(/grading error/);
    expect(counted.status).toBe(0);
    const reward = JSON.parse(readFileSync(join(counted.out, "reward.json"), "utf8")) as Record<
      string,
      number
    >;
    expect(reward).toMatchObject({ episodes: 0, after: 0, reward: 0 });
  });

  it("changes nothing while time is left", () => {
    const fine = `
import sys
sys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})
import lh
print(json.dumps([lh.run(["python3", "-c", "print(6*7)"], timeout=5)[1].strip(), lh.time_left() > 100]))
`;
    const env = {
      PATH: "/usr/bin:/bin",
      LONGHAUL_WORKDIR: tmpdir(),
      LONGHAUL_RUN_DEADLINE: String(Math.floor(Date.now() / 1000) + 600),
    };
    const out = execFileSync("/usr/bin/python3", ["-I", "-c", `import json\n${fine}`], {
      env,
      encoding: "utf8",
    });
    expect(JSON.parse(out.trim())).toEqual(["42", true]);
  });
});

describe("runDeadline", () => {
  it("leaves the grader a tenth of its limit, between 10 and 60 s, and a third of very short limits", () => {
    const now = 1_800_000_000_000;
    expect(runDeadline(120, now)).toBe(1_800_000_000 + 108);
    expect(runDeadline(900, now)).toBe(1_800_000_000 + 840);
    expect(runDeadline(60, now)).toBe(1_800_000_000 + 50);
    expect(runDeadline(15, now)).toBe(1_800_000_000 + 10);
    expect(runDeadline(3000, now + 999)).toBe(1_800_000_000 + 2940);
  });
});
