import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { registerScaleAgents } from "../../src/scale/agent/register.js";
import { scaleTask } from "../../src/scale/lineage/scale.js";
import { tempDir } from "../runner/helpers.js";
import { runOneTrial } from "../support/one-trial.js";

/**
 * The done-when criterion of recursive environment scaling, with real sandboxes: a scripted agent
 * that follows only the public instructions (`follow`) solves depth 0, 1, 2, 5 and 10 of a
 * lineage, while the root's bare oracle fails its children (depths 1 and 10). One environment-data task and one
 * program task; the lineages are built without their own oracle trials (the trials here are the
 * check), and each child the agent runs on is a copy without solution/, res.json or lineage files.
 * The program task is grid-puzzle-solver, whose input comes through a first-path channel: of the
 * bundled first-path tasks the cheapest child to verify (docs/benchmarks.md: 4.7 s per child,
 * where blob-count, the program task here until 2026-12-06, takes 14.4 s), and 7 of the file's
 * 14 trials run over its children.
 */
const ROOTS = {
  ledger: resolve(import.meta.dirname, "../fixtures/res/ledger-report"),
  grid: resolve(import.meta.dirname, "../../tasks/grid-puzzle-solver"),
};
const DEPTHS = [0, 1, 2, 5, 10] as const;
// The root's bare oracle runs on the shallowest and the deepest child here (a sample, to keep
// the suite in budget); the verifier runs it on every child when it verifies with trials, as the
// bundled lineages of test/scale/lineages/ are.
const BARE_DEPTHS: readonly number[] = [1, 10];
const provider = getSandboxProvider("bwrap");
const scratch = tempDir("follow-e2e");
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Name = keyof typeof ROOTS;
const results = new Map<string, TrialResult>();
const key = (name: Name, who: "follow" | "oracle", depth: number): string => `${name}/${who}/d${depth}`;

/** The task folder at `depth` of `name`'s lineage (the root at 0), copied alone and stripped for the agent. */
function childCopy(name: Name, lineage: string, depth: number, who: "follow" | "oracle"): string {
  const src = depth === 0 ? ROOTS[name] : join(lineage, `${basename(ROOTS[name])}-b1-d${depth}`);
  // Each copy keeps its folder name: the task's name, which `roots=` matches.
  const dst = join(scratch, "tasks", `${name}-${who}-d${depth}`, basename(src));
  cpSync(src, dst, { recursive: true });
  rmSync(join(dst, "solution"), { recursive: true, force: true });
  rmSync(join(dst, "res.json"), { force: true });
  // The root's bare oracle: the child with the root's solution/ in place of its own.
  if (who === "oracle") cpSync(join(ROOTS[name], "solution"), join(dst, "solution"), { recursive: true });
  return dst;
}

function trial(
  dir: string,
  agent: string,
  options: Record<string, string>,
  id: string,
  stopAtFirstFailure = false,
): Promise<TrialResult> {
  return runOneTrial({
    dir,
    agent,
    agentOptions: options,
    seed: 1000,
    jobId: "follow-e2e",
    trialId: id,
    trialDir: join(scratch, "trials", id),
    imagesDir: join(scratch, "images"),
    provider,
    stopAtFirstFailure,
  });
}

/** Runs `jobs` with at most `n` at once (trials are independent sandboxes). */
async function pool(jobs: (() => Promise<void>)[], n: number): Promise<void> {
  const queue = [...jobs];
  await Promise.all(
    Array.from({ length: n }, async () => {
      for (let j = queue.shift(); j !== undefined; j = queue.shift()) await j();
    }),
  );
}

describe("follow solves every depth of two lineages; the root's bare oracle fails the children", () => {
  beforeAll(async () => {
    registerScaleAgents();
    const lineages = Object.fromEntries(
      await Promise.all(
        (Object.keys(ROOTS) as Name[]).map(async (name) => {
          const out = join(scratch, `${name}-res`);
          const res = await scaleTask({
            taskDir: ROOTS[name],
            outDir: out,
            depth: 10,
            children: 1,
            library: "full",
            mode: "recursive",
            seed: 1,
            provider,
            trials: false,
          });
          const approved = res.nodes.filter((n) => n.status === "approved").length;
          if (approved !== 10) throw new Error(`${name}: ${approved} of 10 children approved`);
          return [name, out] as const;
        }),
      ),
    ) as Record<Name, string>;
    const jobs: (() => Promise<void>)[] = [];
    for (const name of Object.keys(ROOTS) as Name[]) {
      for (const depth of DEPTHS) {
        jobs.push(async () => {
          const dir = childCopy(name, lineages[name], depth, "follow");
          // Both ways to name the skill: the root task itself, or the dataset folder holding it.
          const opts: Record<string, string> =
            name === "ledger" ? { root: ROOTS[name] } : { roots: dirname(ROOTS[name]) };
          const r = await trial(dir, "follow", opts, `${name}-follow-d${depth}`);
          results.set(key(name, "follow", depth), r);
        });
        if (!BARE_DEPTHS.includes(depth)) continue;
        jobs.push(async () => {
          const dir = childCopy(name, lineages[name], depth, "oracle");
          // Only R < 1 is asked of it, as in the verifier's bare-oracle check (docs/scale.md).
          const r = await trial(dir, "oracle", {}, `${name}-oracle-d${depth}`, true);
          results.set(key(name, "oracle", depth), r);
        });
      }
    }
    await pool(jobs, 4);
    // The measured rewards, for whoever reads the test log.
    for (const [k, r] of [...results].sort()) process.stderr.write(`${k}: R = ${r.reward ?? "null"}\n`);
  }, 240_000);

  for (const name of Object.keys(ROOTS) as Name[]) {
    it(`${name}: follow scores R = 1.0 at depths ${DEPTHS.join(", ")}`, () => {
      const got = DEPTHS.map((d) => {
        const r = results.get(key(name, "follow", d));
        return `d${d}: R=${r?.reward ?? "null"} ${r?.error?.message ?? ""}`.trim();
      });
      expect(got).toEqual(DEPTHS.map((d) => `d${d}: R=1`));
    });

    it(`${name}: the root's bare oracle scores R < 1 at depths ${BARE_DEPTHS.join(" and ")}`, () => {
      for (const d of BARE_DEPTHS) {
        const r = results.get(key(name, "oracle", d));
        expect(r, `d${d}`).toBeDefined();
        expect(r?.reward ?? 0, `d${d}`).toBeLessThan(1);
      }
    });

    it(`${name}: follow records one trajectory step per command it ran`, () => {
      const trialDir = join(scratch, "trials", `${name}-follow-d10`);
      const r = results.get(key(name, "follow", 10));
      const traj = JSON.parse(readFileSync(join(trialDir, "agent", "trajectory.json"), "utf8")) as {
        steps: { tool_calls?: unknown[] }[];
        final_metrics: { total_steps: number };
      };
      const calls = traj.steps.filter((s) => (s.tool_calls ?? []).length > 0).length;
      expect(calls).toBe(r?.usage.turns);
      expect(traj.final_metrics.total_steps).toBe(calls);
      // At depth 10 there is more to do than the root solution alone.
      expect(calls).toBeGreaterThan(1);
      expect(existsSync(join(trialDir, "agent", "follow.log"))).toBe(true);
    });
  }
});
