import { existsSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { errorMessage, UserError } from "../../core/errors.js";
import { Rng } from "../../core/rng.js";
import { buildChannelChildFiles } from "../channel/build-channel-child.js";
import type { ChannelDecl } from "../channel/steps.js";
import { buildChildFiles, loadParent, type ParentInfo } from "../child/build-child.js";
import type { ScaleMode } from "../child/res-json.js";
import { stepLabel } from "../child/spec-update.js";
import { keepExecutableBits, keepSnapshotBits, treeDigest, writeTree } from "../file-tree.js";
import { CHILD } from "../layout.js";
import { applyPlan, PlanStepError } from "../plan/apply.js";
import type { Proposer, RepairRequest } from "../plan/proposer.js";
import { type Plan, PlanSchema, parsePlan } from "../plan/schema.js";
import type { TargetRecord } from "../target/target-record.js";
import type { Transform } from "../types.js";
import { type Diagnostic, diag, type Verdict } from "../verify/diagnostics.js";
import type { ImageMemo } from "../verify/oracle-trials.js";
import { verifyChild } from "../verify/verify-child.js";
import { markUnrecorded, unmarkUnrecorded } from "./leftovers.js";
import { type ChildTokens, ProposerGate } from "./proposer-gate.js";
import type { ScaleOptions } from "./scale.js";
import type { LineageNode } from "./store.js";

export interface GrowInput {
  o: ScaleOptions;
  outDir: string;
  proposer: Proposer;
  transforms: Transform<unknown>[];
  parent: ParentInfo;
  id: string;
  depth: number;
  branch: number;
  steps: number;
  log: (line: string) => void;
  record: (n: LineageNode) => void;
  /** Images looked up so far in this run, shared by every child's oracle trials. */
  images?: ImageMemo;
  /** The adaptive stop's target agent on an approved child, before its node is recorded. */
  evaluate?: (childDir: string, id: string) => Promise<TargetRecord>;
}

/** An approved child, as the next level's parent, and the target agent's result on it. */
export interface Grown {
  info: ParentInfo;
  target?: TargetRecord;
}

/** Proposes, builds and verifies one child, repairing on rejection; the approved child, or null. */
export async function grow(g: GrowInput): Promise<Grown | null> {
  const t0 = performance.now();
  let verifySeconds = 0;
  // Counted per call: other children may call the same proposer meanwhile (`scale -n`).
  const tokens: ChildTokens | null = g.proposer.usage === undefined ? null : { input: 0, output: 0 };
  const gate = ProposerGate.of(g.proposer);
  const seed = new Rng(`${g.o.seed}:${g.o.mode}:${g.branch}:${g.depth}`).nextU32();
  const request = {
    tree: g.parent.tree.tree,
    resources: g.parent.resources,
    library: g.o.library,
    transforms: g.transforms,
    steps: g.steps,
    seed,
    channel: g.parent.channel,
  };
  const repairs = g.o.repairs ?? 3;
  let previous: Plan | null = null;
  const rejected: Plan[] = [];
  const rejections: Rejection[] = [];
  const reject = (plan: Plan, why: Diagnostic[]): void => {
    // A malformed plan is recorded but not handed back to the proposer's repair.
    if (PlanSchema.safeParse(plan).success) rejected.push(plan);
    rejections.push({ attempt: attempt + 1, plan: safeDescribe(plan), diagnostics: why });
  };
  let diagnostics: Diagnostic[] = [];
  let verdict: Verdict | null = null;
  let envDigest: string | null = null;
  let channel: ChannelDecl | undefined;
  const stage = join(g.outDir, `.stage-${g.id}`);
  let attempt = 0;
  for (; attempt <= repairs; attempt++) {
    // Without a well-formed plan to repair, a fresh proposal from the attempt's own seed.
    const fresh =
      attempt === 0 ? request : { ...request, seed: new Rng(`${seed}:fresh:${attempt}`).nextU32() };
    const repair: RepairRequest | null =
      previous === null ? null : { ...request, previous, diagnostics, attempt, rejected: [...rejected] };
    const proposed: Plan | null = await gate.call(
      (p) => (repair === null ? p.propose(fresh) : p.repair(repair)),
      tokens,
    );
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
      const meta = {
        id: g.id,
        depth: g.depth,
        mode: g.o.mode,
        branch: g.branch,
        attempt,
        childDir: join(g.outDir, g.id),
      };
      rmSync(stage, { recursive: true, force: true });
      if (g.parent.program !== null) {
        // A program task: the plan is channel steps; the environment stays the parent's.
        const built = buildChannelChildFiles(g.parent, plan, meta);
        channel = built.decl;
        envDigest = treeDigest(g.parent.tree.tree);
        writeTree(stage, built.files);
      } else {
        const applied = applyPlan(g.parent.tree.tree, plan, g.parent.executables);
        envDigest = treeDigest(applied.env);
        writeTree(stage, buildChildFiles(g.parent, plan, applied, meta).files);
      }
      keepExecutableBits(g.parent.dir, stage);
      if (g.parent.depth === 0)
        keepSnapshotBits(g.parent.executables, join(stage, "tests", CHILD.snapshotDir));
    } catch (e) {
      const step = e instanceof PlanStepError ? stepLabel(g.depth, e.step) : null;
      diagnostics = [diag("plan-invalid", step, errorMessage(e))];
      if (PlanSchema.safeParse(proposed).success) previous = proposed;
      reject(proposed, diagnostics);
      g.log(`${g.id} attempt ${attempt + 1}: plan-invalid: ${errorMessage(e)}`);
      continue;
    }
    g.log(`${g.id} attempt ${attempt + 1}: ${describePlan(plan)}; verifying…`);
    const v0 = performance.now();
    verdict = await verifyChild(stage, {
      provider: g.o.provider,
      trials: g.o.trials,
      signal: g.o.signal,
      timeoutMultiplier: g.o.timeoutMultiplier,
      images: g.images,
      parent: g.parent,
    }).catch((e: unknown) => {
      // A sandbox killed because we are stopping is the stop, not an infrastructure failure.
      g.o.signal?.throwIfAborted();
      throw e;
    });
    verifySeconds += (performance.now() - v0) / 1000;
    // A verdict reached while stopping (Ctrl-C, or another chain's failure) is not recorded.
    g.o.signal?.throwIfAborted();
    diagnostics = verdict.diagnostics;
    previous = plan;
    if (verdict.ok) {
      const dir = join(g.outDir, g.id);
      // Until its node is recorded the folder is marked as this run's: a resume after a kill removes it.
      markUnrecorded(g.outDir, g.id);
      renameSync(stage, dir);
      const seconds = (performance.now() - t0) / 1000;
      g.log(
        `${g.id}: approved in ${seconds.toFixed(1)} s (${verdict.checks.map((c) => `${c.name} ${c.status}`).join(", ")})`,
      );
      const info = await loadParent(dir);
      // Measured after `seconds` is taken: the node's seconds are the construction cost alone.
      const target = g.evaluate === undefined ? undefined : await targetOf(g, g.evaluate, dir);
      g.record({
        ...nodeOf(g, "approved", seed, attempt + 1, plan, verdict, seconds, tokens),
        dir: g.id,
        env_digest: envDigest,
        rejections,
        verify_seconds: Math.round(verifySeconds * 1000) / 1000,
        checksum: info.checksum,
        ...(channel === undefined ? {} : { channel }),
        ...(target === undefined ? {} : { target }),
      });
      unmarkUnrecorded(g.outDir, g.id);
      return { info, ...(target === undefined ? {} : { target }) };
    }
    reject(plan, diagnostics);
    g.log(
      `${g.id} attempt ${attempt + 1} rejected: ${diagnostics.map((d) => `${d.code}${d.step ? `@${d.step}` : ""}`).join(", ")}`,
    );
  }
  if (existsSync(stage)) {
    markUnrecorded(g.outDir, g.id);
    renameSync(stage, join(g.outDir, `.discarded-${g.id}`));
  }
  const seconds = (performance.now() - t0) / 1000;
  g.log(`${g.id}: discarded after ${attempt} attempt(s); the chain stops at ${g.parent.id}`);
  g.record({
    ...nodeOf(g, "discarded", seed, Math.min(attempt, repairs + 1), previous, verdict, seconds, tokens),
    diagnostics,
    rejections,
    verify_seconds: Math.round(verifySeconds * 1000) / 1000,
    ...(channel === undefined ? {} : { channel }),
  });
  unmarkUnrecorded(g.outDir, g.id);
  return null;
}

/** The target agent's result; a stop while it runs ends with the stop, and records nothing. */
async function targetOf(
  g: GrowInput,
  evaluate: NonNullable<GrowInput["evaluate"]>,
  dir: string,
): Promise<TargetRecord> {
  const stopping = (): void => g.o.signal?.throwIfAborted();
  const target = await evaluate(dir, g.id).catch((e: unknown) => {
    stopping();
    throw e;
  });
  // A result reached while stopping may rest on attempts cut short.
  stopping();
  return target;
}

function nodeOf(
  g: GrowInput,
  status: "approved" | "discarded",
  seed: number,
  attempts: number,
  plan: Plan | null,
  verdict: Verdict | null,
  seconds: number,
  tokens: ChildTokens | null,
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
    proposer: g.proposer.name,
    ...(tokens === null ? {} : { tokens: { ...tokens } }),
  };
}

export function blank(
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
    rejections: [],
    seconds: 0,
  };
}

type Rejection = LineageNode["rejections"][number];

/** A proposer's plan may be malformed (that is why it was rejected): describe it without trusting it. */
function safeDescribe(plan: Plan): string {
  try {
    return describePlan(plan);
  } catch {
    return "(malformed plan)";
  }
}

export function describePlan(plan: Plan): string {
  return plan.steps.map((s) => `${s.transform}(${s.targets.join(", ")})`).join(" → ");
}
