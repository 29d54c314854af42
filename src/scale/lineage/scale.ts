import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { errorMessage, UserError } from "../../core/errors.js";
import { Rng } from "../../core/rng.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import { loadTask } from "../../task/load.js";
import { buildChildFiles, loadParent, type ParentInfo } from "../child/build-child.js";
import { MAX_DEPTH, type ScaleMode } from "../child/res-json.js";
import { stepLabel } from "../child/spec-update.js";
import { treeDigest, writeTree } from "../file-tree.js";
import { applyPlan, PlanStepError } from "../plan/apply.js";
import type { Proposer } from "../plan/proposer.js";
import { type LibraryName, type Plan, parsePlan } from "../plan/schema.js";
import { SeededProposer } from "../plan/seeded-proposer.js";
import { basicTransforms, listTransforms } from "../transforms/registry.js";
import { type Diagnostic, diag, type Verdict } from "../verify/diagnostics.js";
import { verifyChild } from "../verify/verify-child.js";
import { LINEAGE_JSONL, type LineageNode, LineageStore } from "./store.js";

export interface ScaleOptions {
  taskDir: string;
  outDir: string;
  depth: number;
  /** Recursive: independent chains; independent: children of the root. */
  children: number;
  library: LibraryName;
  mode: ScaleMode;
  seed: number;
  /** Plan steps per level (an independent child gets depth × this many). */
  stepsPerLevel?: number;
  /** Repairs after a rejected proposal before the candidate is discarded (default 3). */
  repairs?: number;
  provider: SandboxProvider;
  proposer?: Proposer;
  trials?: boolean;
  log?: (line: string) => void;
  signal?: AbortSignal;
}

export interface ScaleResult {
  outDir: string;
  nodes: LineageNode[];
}

/**
 * Builds a lineage: in `recursive` mode each approved child is the next one's parent (depth
 * 1..K, `children` chains); in `independent` mode each child is a one-level strengthening of the
 * root with as many plan steps as K levels. A candidate becomes a parent only once verified; a
 * rejected one is repaired up to `repairs` times, then discarded and its chain stops at its parent.
 */
export async function scaleTask(o: ScaleOptions): Promise<ScaleResult> {
  if (!Number.isInteger(o.depth) || o.depth < 1 || o.depth > MAX_DEPTH) {
    throw new UserError(`--depth must be a whole number from 1 to ${MAX_DEPTH}, got ${o.depth}`);
  }
  const outDir = resolve(o.outDir);
  if (existsSync(join(outDir, LINEAGE_JSONL))) {
    throw new UserError(`${outDir} already holds a lineage (${LINEAGE_JSONL}); choose another --out`);
  }
  const taskDir = resolve(o.taskDir);
  await loadTask(taskDir);
  const root = await loadParent(taskDir);
  if (root.requirements.isChild)
    throw new UserError(`${taskDir} is a RES child; scale its root task instead`);
  if (root.requirements.protected.reads.length === 0) {
    throw new UserError(
      `${taskDir}: not scalable as an environment-data task: no file in tests/ names a file of its environment (checks that read no environment file cannot be kept fixed by RES)`,
    );
  }
  const transforms = o.library === "basic" ? basicTransforms() : listTransforms();
  if (transforms.length === 0) throw new UserError(`the ${o.library} transform library is empty`);
  mkdirSync(outDir, { recursive: true });
  const log = o.log ?? (() => {});
  const proposer = o.proposer ?? new SeededProposer();
  const store = new LineageStore(outDir);
  const nodes: LineageNode[] = [];
  const record = (n: LineageNode): void => {
    store.add(n);
    nodes.push(n);
  };
  const rootId = safeId(root.id);
  record({
    ...blank(rootId, null, "root", 0, 0, null),
    dir: taskDir,
    env_digest: treeDigest(root.tree.tree),
  });
  try {
    const steps = o.stepsPerLevel ?? 2;
    for (let b = 1; b <= o.children; b++) {
      if (o.mode === "independent") {
        const id = `${rootId}-i${b}`;
        await grow({
          o,
          outDir,
          proposer,
          transforms,
          parent: root,
          id,
          depth: 1,
          branch: b,
          steps: steps * o.depth,
          log,
          record,
        });
        continue;
      }
      let parent: ParentInfo = root;
      for (let k = 1; k <= o.depth; k++) {
        const id = `${rootId}-b${b}-d${k}`;
        const grown = await grow({
          o,
          outDir,
          proposer,
          transforms,
          parent,
          id,
          depth: k,
          branch: b,
          steps,
          log,
          record,
        });
        if (grown === null) break;
        parent = grown;
      }
    }
  } finally {
    store.close();
    removeStaging(outDir);
  }
  return { outDir, nodes };
}

interface GrowInput {
  o: ScaleOptions;
  outDir: string;
  proposer: Proposer;
  transforms: ReturnType<typeof listTransforms>;
  parent: ParentInfo;
  id: string;
  depth: number;
  branch: number;
  steps: number;
  log: (line: string) => void;
  record: (n: LineageNode) => void;
}

/** Proposes, builds and verifies one child, repairing on rejection; the approved child's info, or null. */
async function grow(g: GrowInput): Promise<ParentInfo | null> {
  const t0 = performance.now();
  const seed = new Rng(`${g.o.seed}:${g.o.mode}:${g.branch}:${g.depth}`).nextU32();
  const request = {
    tree: g.parent.tree.tree,
    resources: g.parent.resources,
    library: g.o.library,
    transforms: g.transforms,
    steps: g.steps,
    seed,
  };
  const repairs = g.o.repairs ?? 3;
  let previous: Plan | null = null;
  const rejected: Plan[] = [];
  let diagnostics: Diagnostic[] = [];
  let verdict: Verdict | null = null;
  let envDigest: string | null = null;
  const stage = join(g.outDir, `.stage-${g.id}`);
  let attempt = 0;
  for (; attempt <= repairs; attempt++) {
    const proposed: Plan | null =
      previous === null
        ? g.proposer.propose(request)
        : g.proposer.repair({ ...request, previous, diagnostics, attempt, rejected });
    if (proposed === null) {
      diagnostics = [
        diag(
          "plan-invalid",
          null,
          `no transform of the ${g.o.library} library applies to ${g.parent.resources.join(", ") || "any resource"}`,
        ),
      ];
      break;
    }
    let plan: Plan;
    try {
      plan = parsePlan(proposed, `${g.proposer.name} proposer`);
      if (plan.library !== g.o.library) {
        throw new UserError(`the plan declares the ${plan.library} library, not ${g.o.library}`);
      }
      const applied = applyPlan(g.parent.tree.tree, plan);
      envDigest = treeDigest(applied.env);
      const meta = {
        id: g.id,
        depth: g.depth,
        mode: g.o.mode,
        branch: g.branch,
        attempt,
        childDir: join(g.outDir, g.id),
      };
      rmSync(stage, { recursive: true, force: true });
      writeTree(stage, buildChildFiles(g.parent, plan, applied, meta).files);
    } catch (e) {
      const step = e instanceof PlanStepError ? stepLabel(g.depth, e.step) : null;
      diagnostics = [diag("plan-invalid", step, errorMessage(e))];
      previous = proposed;
      rejected.push(proposed);
      g.log(`${g.id} attempt ${attempt + 1}: plan-invalid: ${errorMessage(e)}`);
      continue;
    }
    g.log(`${g.id} attempt ${attempt + 1}: ${describePlan(plan)}; verifying…`);
    verdict = await verifyChild(stage, { provider: g.o.provider, trials: g.o.trials, signal: g.o.signal });
    diagnostics = verdict.diagnostics;
    previous = plan;
    rejected.push(plan);
    if (verdict.ok) {
      const dir = join(g.outDir, g.id);
      renameSync(stage, dir);
      const seconds = (performance.now() - t0) / 1000;
      g.log(
        `${g.id}: approved in ${seconds.toFixed(1)} s (${verdict.checks.map((c) => `${c.name} ${c.status}`).join(", ")})`,
      );
      g.record({
        ...nodeOf(g, "approved", seed, attempt + 1, plan, verdict, seconds),
        dir: g.id,
        env_digest: envDigest,
      });
      return loadParent(dir);
    }
    g.log(
      `${g.id} attempt ${attempt + 1} rejected: ${diagnostics.map((d) => `${d.code}${d.step ? `@${d.step}` : ""}`).join(", ")}`,
    );
  }
  if (existsSync(stage)) renameSync(stage, join(g.outDir, `.discarded-${g.id}`));
  const seconds = (performance.now() - t0) / 1000;
  g.log(`${g.id}: discarded after ${attempt} attempt(s); the chain stops at ${g.parent.id}`);
  g.record({
    ...nodeOf(g, "discarded", seed, Math.min(attempt, repairs + 1), previous, verdict, seconds),
    diagnostics,
  });
  return null;
}

function nodeOf(
  g: GrowInput,
  status: "approved" | "discarded",
  seed: number,
  attempts: number,
  plan: Plan | null,
  verdict: Verdict | null,
  seconds: number,
): LineageNode {
  return {
    ...blank(g.id, g.parent.id, status, g.depth, g.branch, g.o.mode),
    seed,
    attempts,
    plan,
    env_digest: null,
    checks: (verdict?.checks ?? []).map((c) => ({ name: c.name, status: c.status, detail: c.detail })),
    diagnostics: verdict?.diagnostics ?? [],
    seconds: Math.round(seconds * 1000) / 1000,
  };
}

function blank(
  id: string,
  parent: string | null,
  status: LineageNode["status"],
  depth: number,
  branch: number,
  mode: ScaleMode | null,
): LineageNode {
  return {
    id,
    parent,
    status,
    depth,
    branch,
    mode,
    dir: null,
    seed: null,
    attempts: 0,
    plan: null,
    env_digest: null,
    checks: [],
    diagnostics: [],
    seconds: 0,
  };
}

export function describePlan(plan: Plan): string {
  return plan.steps.map((s) => `${s.transform}(${s.targets.join(", ")})`).join(" → ");
}

function safeId(name: string): string {
  return basename(name).replace(/[^A-Za-z0-9._-]/g, "_");
}

/** Staged candidates that were neither approved nor discarded (an interrupted run). */
function removeStaging(outDir: string): void {
  for (const name of readdirSync(outDir)) {
    if (name.startsWith(".stage-")) rmSync(join(outDir, name), { recursive: true, force: true });
  }
}
