import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { Rng } from "../../core/rng.js";
import { graderKitDir } from "../kit-path.js";
import { scoreVerifierDir } from "../reward.js";
import { parseRubric } from "../rubric.js";
import {
  clamp01,
  createGrader,
  createRng,
  mean,
  parseRubricWeights,
  relativeError,
  scoreContinuous,
  weightedMean,
} from "./grader-kit.mjs";

const run = promisify(execFile);
const KIT = pathToFileURL(join(graderKitDir(), "grader-kit.mjs")).href;

interface GraderRun {
  outDir: string;
  stdout: string;
  stderr: string;
  ms: number;
  rewardJson: Record<string, number>;
  details: {
    reward: number;
    seed: number;
    stress_digest?: string;
    subtasks: Record<string, Record<string, unknown>>;
  };
}

/** Write a grader script that uses the kit, run it with plain node, and read what it wrote. */
async function runGrader(body: string, env: Record<string, string> = {}): Promise<GraderRun> {
  const dir = mkdtempSync(join(tmpdir(), "lh-kit-"));
  const outDir = join(dir, "verifier");
  const script = join(dir, "grade.mjs");
  writeFileSync(
    script,
    `import * as kit from ${JSON.stringify(KIT)};\nconst { createGrader } = kit;\n${body}\n`,
  );
  const started = Date.now();
  const { stdout, stderr } = await run(process.execPath, [script], {
    env: { PATH: process.env.PATH ?? "", LONGHAUL_VERIFIER_DIR: outDir, ...env },
    timeout: 20_000,
  });
  const ms = Date.now() - started;
  return {
    outDir,
    stdout,
    stderr,
    ms,
    rewardJson: JSON.parse(readFileSync(join(outDir, "reward.json"), "utf8")),
    details: JSON.parse(readFileSync(join(outDir, "reward-details.json"), "utf8")),
  };
}

describe("grader kit in a child node process", () => {
  it("records a stress digest that follows the seed's generated inputs", async () => {
    const body = `
const g = createGrader({ rubric: false });
g.episode("cases", async ({ rng, recordStress }) => {
  const xs = Array.from({ length: 5 }, () => rng.int(0, 1000));
  recordStress("xs", xs);
  return xs.map(() => ({ score: 1 }));
});
await g.run();
`;
    const a = await runGrader(body, { LONGHAUL_SEED: "11" });
    const b = await runGrader(body, { LONGHAUL_SEED: "11" });
    const c = await runGrader(body, { LONGHAUL_SEED: "12" });
    expect(a.details.stress_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(b.details.stress_digest).toBe(a.details.stress_digest);
    expect(c.details.stress_digest).not.toBe(a.details.stress_digest);
    const none = await runGrader(
      `const g = createGrader({ rubric: false }); g.binary("x", () => true); await g.run();`,
    );
    expect(none.details.stress_digest).toBeUndefined();
  });

  it("with LONGHAUL_STOP_AT_FIRST_FAILURE=1, runs no check after the first weighted one below 1", async () => {
    const body = `
const ran = [];
const g = createGrader({ rubric: false });
g.binary("free", () => { ran.push("free"); return false; }, { weight: 0 });
g.binary("first", () => { ran.push("first"); return true; });
g.continuous("second", () => { ran.push("second"); return { error: 0.3, tolerance: 0.1, cutoff: 0.5 }; });
g.binary("third", () => { ran.push("third"); return true; });
await g.run();
console.log(JSON.stringify(ran));
`;
    const full = await runGrader(body);
    expect(JSON.parse(full.stdout.trim().split("\n").pop() ?? "")).toEqual([
      "free",
      "first",
      "second",
      "third",
    ]);
    const stopped = await runGrader(body, { LONGHAUL_STOP_AT_FIRST_FAILURE: "1" });
    // A weight-0 failure settles nothing about R; "second" (0.5) does.
    expect(JSON.parse(stopped.stdout.trim().split("\n").pop() ?? "")).toEqual(["free", "first", "second"]);
    expect(stopped.rewardJson.third).toBe(0);
    expect(String(stopped.details.subtasks.third?.message)).toMatch(/^not run/);
    expect(full.rewardJson.reward).toBeLessThan(1);
    expect(stopped.rewardJson.reward).toBeLessThan(1);
  });

  it("isolates a throwing check, times out a hanging one, and writes files scoreTrial accepts", async () => {
    const r = await runGrader(`
const g = createGrader({ rubric: false, timeoutMs: 400 });
g.binary("first", async () => true);
g.binary("throws", async () => { throw new Error("file /app/out.csv not found"); });
g.binary("hangs", () => new Promise(() => { setInterval(() => {}, 1000); }));
g.continuous("after", async () => ({ error: 0.3, tolerance: 0.1, cutoff: 0.5, message: "rmse 0.3" }));
const res = await g.run();
console.log(JSON.stringify(res));
`);
    expect(r.rewardJson).toEqual({ first: 1, throws: 0, hangs: 0, after: 0.5, reward: 0.375 });
    expect(r.details.subtasks.throws).toMatchObject({ score: 0, error: "file /app/out.csv not found" });
    expect(r.details.subtasks.hangs).toMatchObject({
      score: 0,
      timed_out: true,
      error: "timed out after 400 ms",
    });
    // The hung check's interval would keep node alive forever; the kit exits after its grace period.
    expect(r.ms).toBeLessThan(8000);
    expect(JSON.parse(r.stdout).reward).toBe(0.375);

    const rubric = parseRubric(
      "rubric.toml",
      ["first", "throws", "hangs", "after"]
        .map(
          (id) =>
            `[[subtask]]\nid = "${id}"\nweight = 1\nkind = "${id === "after" ? "continuous" : "binary"}"\nvisibility = "hidden"\n`,
        )
        .join("\n"),
    );
    const scored = await scoreVerifierDir(r.outDir, rubric);
    expect(scored.failed).toBe(false);
    expect(scored.gradingErrors).toEqual([]);
    expect(scored.reward).toBe(0.375);
    expect(scored.subtasks.find((s) => s.id === "throws")?.message).toBe(
      "error: file /app/out.csv not found",
    );
    expect(scored.subtasks.find((s) => s.id === "after")?.message).toBe("rmse 0.3");
  }, 30_000);

  it("scores malformed returns 0 with a reason, and episodes by their mean", async () => {
    const r = await runGrader(`
const g = createGrader({ rubric: false });
g.binary("number", async () => 1);
g.continuous("nan", async () => ({ error: NaN, tolerance: 0, cutoff: 1 }));
g.continuous("backwards", async () => ({ error: 1, tolerance: 2, cutoff: 1 }));
g.continuous("direct", async () => ({ score: 0.25 }));
g.episode("none", async () => []);
g.episode("bad_ep", async () => [{ score: 1 }, { score: 2 }]);
g.episode("games", async ({ rng }) => [0, 1, 2, 3].map((i) => ({ score: i / 4, map: rng.int(1, 100) })));
await g.run();
`);
    expect(r.rewardJson).toMatchObject({
      number: 0,
      nan: 0,
      backwards: 0,
      direct: 0.25,
      none: 0,
      bad_ep: 0,
      games: 0.375,
    });
    expect(r.details.subtasks.number?.error).toMatch(/must return a boolean/);
    expect(r.details.subtasks.nan?.error).toMatch(/error must be a number/);
    expect(r.details.subtasks.backwards?.error).toMatch(/cutoff must be a number > tolerance/);
    expect(r.details.subtasks.none?.error).toMatch(/no episodes/);
    expect(r.details.subtasks.bad_ep?.error).toMatch(/episode 1: score/);
    const episodes = z.array(z.object({ score: z.number(), map: z.number().int() }));
    expect(episodes.parse(r.details.subtasks.games?.episodes).map((e) => e.score)).toEqual([
      0, 0.25, 0.5, 0.75,
    ]);
  }, 30_000);

  it("uses rubric weights for the written total and flags ids that do not match", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lh-kit-rubric-"));
    const rubricPath = join(dir, "rubric.toml");
    const text = `[[subtask]]\nid = "a"\nweight = 3 # most of it\nkind = "binary"\nvisibility = "hidden"\n\n[[subtask]]\nid = 'b'\nweight = 1\nkind = "binary"\nvisibility = "public"\n`;
    writeFileSync(rubricPath, text);
    const r = await runGrader(`
const g = createGrader({ rubric: ${JSON.stringify(rubricPath)} });
g.binary("a", () => true);
g.binary("stray", () => true);
await g.run();
`);
    expect(r.rewardJson).toEqual({ a: 1, stray: 1, b: 0, reward: 0.75 });
    expect(r.details.subtasks.b?.error).toMatch(/no check registered/);
    expect(r.details.subtasks.stray?.undeclared).toBe(true);
    // The host refuses a reward file with an id the rubric does not declare: a grading error.
    const scored = await scoreVerifierDir(r.outDir, parseRubric("rubric.toml", text));
    expect(scored.failed).toBe(true);
    expect(scored.reward).toBeNull();
    expect(scored.gradingErrors.some((e) => e.includes("stray"))).toBe(true);
  }, 30_000);

  it("gives each check seeded cases that depend on the seed and id, not on order", async () => {
    const body = (order: string[]) => `
const g = createGrader({ rubric: false });
${order.map((id) => `g.episode("${id}", ({ rng }) => [{ score: 1, v: rng.nextU32() }]);`).join("\n")}
await g.run();
`;
    const episodes = z.array(z.object({ v: z.number() })).min(1);
    const values = (run: GraderRun, id: string) => episodes.parse(run.details.subtasks[id]?.episodes)[0]?.v;
    const a = await runGrader(body(["x", "y"]), { LONGHAUL_SEED: "42" });
    const b = await runGrader(body(["y", "x"]), { LONGHAUL_SEED: "42" });
    const c = await runGrader(body(["x", "y"]), { LONGHAUL_SEED: "43" });
    expect(a.details.seed).toBe(42);
    expect(values(b, "x")).toBe(values(a, "x"));
    expect(values(b, "y")).toBe(values(a, "y"));
    expect(values(a, "x")).not.toBe(values(a, "y"));
    expect(values(c, "x")).not.toBe(values(a, "x"));
  }, 30_000);

  it("runs programs through exec and kills them on timeout", async () => {
    const r = await runGrader(`
const g = createGrader({ rubric: false, timeoutMs: 5000 });
g.binary("echo", async ({ exec }) => {
  const res = await exec("sh", ["-c", "read x; echo got-$x; exit 3"], { input: "hello\\n" });
  return { pass: res.code === 3 && res.stdout === "got-hello\\n", message: res.stdout.trim() };
});
g.binary("slow", async ({ exec }) => {
  const res = await exec("sleep", ["10"], { timeoutMs: 200 });
  return { pass: res.timedOut && res.code === null, message: String(res.signal) };
});
g.binary("grandchild", async ({ exec }) => {
  // The shell's own child holds stdout open; only killing the whole group ends this.
  const res = await exec("sh", ["-c", "sleep 10; echo never"], { timeoutMs: 200 });
  return { pass: res.timedOut && !res.stdout.includes("never"), message: String(res.signal) };
});
g.binary("missing", async ({ exec }) => (await exec("no-such-program-xyz")).code === null);
await g.run();
`);
    expect(r.rewardJson).toEqual({ echo: 1, slow: 1, grandchild: 1, missing: 1, reward: 1 });
    expect(r.details.subtasks.echo?.message).toBe("got-hello");
    expect(r.ms).toBeLessThan(5000);
  }, 30_000);
});

describe("grader kit pure helpers", () => {
  it("scores continuous errors with each decay", () => {
    const base = { tolerance: 1, cutoff: 11 };
    for (const decay of ["linear", "exponential", "relative"] as const) {
      expect(scoreContinuous({ ...base, error: 0.5, decay })).toBe(1);
      expect(scoreContinuous({ ...base, error: -1, decay })).toBe(1);
      expect(scoreContinuous({ ...base, error: 11, decay })).toBe(0);
      expect(scoreContinuous({ ...base, error: 1e9, decay })).toBe(0);
      expect(scoreContinuous({ ...base, error: Number.POSITIVE_INFINITY, decay })).toBe(0);
      let prev = 1;
      for (let e = 1; e <= 11; e += 0.5) {
        const s = scoreContinuous({ ...base, error: e, decay });
        expect(s).toBeLessThanOrEqual(prev);
        prev = s;
      }
    }
    expect(scoreContinuous({ ...base, error: 6 })).toBeCloseTo(0.5, 12);
    expect(scoreContinuous({ ...base, error: 3.5, decay: "linear" })).toBeCloseTo(0.75, 12);
    const k = 5;
    const x = 0.5;
    expect(scoreContinuous({ ...base, error: 6, decay: "exponential" })).toBeCloseTo(
      (Math.exp(-k * x) - Math.exp(-k)) / (1 - Math.exp(-k)),
      12,
    );
    // Relative decay: linear in log-error, so 10x past tolerance on a 100x range is half.
    expect(scoreContinuous({ error: 0.1, tolerance: 0.01, cutoff: 1, decay: "relative" })).toBeCloseTo(
      0.5,
      12,
    );
    expect(() => scoreContinuous({ error: 0.5, tolerance: 0, cutoff: 1, decay: "relative" })).toThrow(
      /tolerance > 0/,
    );
    expect(() => scoreContinuous({ error: 0.5, tolerance: 1, cutoff: 1 })).toThrow(TypeError);
    expect(() => scoreContinuous({ error: Number.NaN, tolerance: 0, cutoff: 1 })).toThrow(TypeError);
  });

  it("computes means, errors and clamps", () => {
    expect(mean([1, 2, 3, 6])).toBe(3);
    expect(mean([])).toBeNaN();
    expect(
      weightedMean([
        { value: 1, weight: 3 },
        { value: 0, weight: 1 },
      ]),
    ).toBe(0.75);
    expect(relativeError(110, 100)).toBeCloseTo(0.1, 12);
    expect(relativeError(0, 0)).toBe(0);
    expect(clamp01(Number.NaN)).toBe(0);
    expect(clamp01(1.5)).toBe(1);
    expect(clamp01(-2)).toBe(0);
  });

  it("draws the same stream as the host Rng for the same seed", () => {
    for (const seed of [0, 1, 42, 2 ** 31 - 1, "case:7", "x"]) {
      const kit = createRng(seed);
      const host = new Rng(seed);
      for (let i = 0; i < 50; i++) expect(kit.nextU32()).toBe(host.nextU32());
      expect(kit.fork("a").int(0, 1000)).toBe(host.fork("a").int(0, 1000));
    }
  });

  it("reads weights from rubric.toml text and rejects bad registrations", () => {
    const w = parseRubricWeights(
      '[meta]\nid = "no"\n[[subtask]]\nid = "a"\nweight = 2.5\n[[subtask]]\nid = "b"\n',
    );
    expect([...w]).toEqual([
      ["a", 2.5],
      ["b", 1],
    ]);
    const g = createGrader({ rubric: false, outDir: tmpdir() });
    g.binary("ok", () => true);
    expect(() => g.binary("ok", () => true)).toThrow(/registered twice/);
    expect(() => g.binary("Bad-Id", () => true)).toThrow(/\[a-z0-9_\]\+/);
    expect(() => g.episode("reward", () => [])).toThrow(/reserved/);
  });
});
