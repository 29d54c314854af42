import { existsSync } from "node:fs";
import { join, relative } from "node:path";
import pLimit, { type LimitFunction } from "p-limit";
import { allOrStop, linkedController } from "../../core/all-or-stop.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import type { ScaleMode } from "../child/res-json.js";
import { lineageCost } from "../lineage/render.js";
import { lineageComplete } from "../lineage/resume.js";
import type { RootChecks } from "../lineage/root-check.js";
import { scaleTask } from "../lineage/scale.js";
import { readLineageSettings } from "../lineage/settings.js";
import { LINEAGE_JSONL, type LineageNode, readLineage } from "../lineage/store.js";
import type { Proposer } from "../plan/proposer.js";
import type { ExperimentLineage } from "./experiment-schema.js";
import { VARIANT_SETUP, type Variant } from "./variants.js";

export interface BuildInput {
  taskDir: string;
  /** The root task's name (its id in every child id). */
  task: string;
  variants: readonly Variant[];
  depths: readonly number[];
  /** The experiment folder; lineages live in `lineages/<task>/<variant>` under it. */
  outDir: string;
  seed: number;
  stepsPerLevel: number;
  repairs: number;
  trials: boolean;
  /** Scales the timeouts of the verifier's oracle trials (the experiment's --timeout-multiplier). */
  timeoutMultiplier?: number;
  provider: SandboxProvider;
  proposer?: Proposer;
  log: (line: string) => void;
  signal?: AbortSignal;
  /** Lineages built at once; shared by every task of an experiment (default: one at a time). */
  limit?: LimitFunction;
}

/** A child the experiment evaluates: which task, variant and depth it stands for. */
export interface PlannedNode {
  variant: Variant;
  depth: number;
  id: string;
  dir: string;
}

export interface BuiltLineages {
  lineages: ExperimentLineage[];
  nodes: PlannedNode[];
}

/**
 * The lineages one task needs, built or reused: a recursive variant is one chain to the deepest
 * requested depth (`lineages/<task>/<variant>`); `independent` is one child per requested depth k
 * ≥ 1, each a one-level lineage of k × steps steps (`lineages/<task>/independent-d<k>`). Child ids
 * start with `<task>-<variant>` so the children of every variant can run in one job.
 */
export async function buildLineages(b: BuildInput): Promise<BuiltLineages> {
  const max = Math.max(0, ...b.depths);
  const wanted = b.depths.filter((d) => d >= 1);
  const lineages: ExperimentLineage[] = [];
  const nodes: PlannedNode[] = [];
  if (max === 0) return { lineages, nodes };
  const builds = b.variants.flatMap((variant) => {
    const setup = VARIANT_SETUP[variant];
    return setup.mode === "recursive"
      ? [
          {
            variant,
            sub: variant,
            depth: max,
            prefix: `${b.task}-${variant}`,
            picks: wanted.map((k) => [k, k]),
          },
        ]
      : wanted.map((k) => ({
          variant,
          sub: `${variant}-d${k}`,
          depth: k,
          prefix: `${b.task}-${variant}-d${k}`,
          picks: [[k, 1]],
        }));
  });
  const limit = b.limit ?? pLimit(1);
  // Every lineage of this root checks its oracle through one shared trial.
  const rootChecks: RootChecks = new Map();
  const { stop, release } = linkedController(b.signal);
  // Side by side up to the limit (`-n`), gathered in the order above whatever finishes first; a
  // failed build stops the others.
  const built = await allOrStop(
    // async: a lineage that does not read is a rejection here, not a throw out of map().
    builds.map(async (x) => {
      const setup = VARIANT_SETUP[x.variant];
      const dir = join(b.outDir, "lineages", b.task, x.sub);
      const held = existsSync(join(dir, LINEAGE_JSONL));
      const kept = held ? reusable(dir, setup.mode, x.depth) : null;
      if (kept !== null) {
        b.log(`${b.task} ${x.variant}: reusing the lineage in ${dir}`);
        return { x, dir, reused: true, all: kept };
      }
      return limit(async () => {
        stop.signal.throwIfAborted();
        b.log(
          held
            ? `${b.task} ${x.variant}: going on with the lineage in ${dir} to depth ${x.depth}`
            : `${b.task} ${x.variant}: building ${setup.mode} depth ${x.depth} (${setup.library} library)`,
        );
        const r = await scaleTask({
          taskDir: b.taskDir,
          outDir: dir,
          depth: x.depth,
          children: 1,
          library: setup.library,
          mode: setup.mode,
          seed: b.seed,
          stepsPerLevel: b.stepsPerLevel,
          repairs: b.repairs,
          provider: b.provider,
          trials: b.trials,
          ...(b.timeoutMultiplier === undefined ? {} : { timeoutMultiplier: b.timeoutMultiplier }),
          idPrefix: x.prefix,
          rootChecks,
          log: b.log,
          ...(b.proposer === undefined ? {} : { proposer: b.proposer }),
          signal: stop.signal,
          resume: held,
        });
        return { x, dir, reused: r.grown === 0, all: r.nodes };
      });
    }),
    stop,
  ).finally(release);
  for (const { x, dir, reused, all } of built) {
    const variant = x.variant;
    // [experiment depth, lineage depth]: an independent child sits at lineage depth 1.
    const children = x.picks.map(([k = 0, at = 0]) => {
      const node = childAt(all, at);
      if (node !== null && node.dir !== null) {
        nodes.push({ variant, depth: k, id: node.id, dir: join(dir, node.dir) });
      } else {
        b.log(`${b.task} ${variant}: no approved child at depth ${k}; it is left out`);
      }
      return { depth: k, id: node?.id ?? null };
    });
    const cost = lineageCost(all).construction;
    lineages.push({
      task: b.task,
      variant,
      dir: relative(b.outDir, dir),
      built: !reused,
      children,
      construction: { seconds: cost.seconds, input_tokens: cost.input, output_tokens: cost.output },
    });
  }
  return { lineages, nodes };
}

/**
 * The nodes of a lineage the experiment takes as it is: one that reached the depth (or stopped
 * for good), or one grown before lineages recorded their settings. Null: an interrupted or
 * shallower lineage, which is resumed (a torn last line is mended by the resume).
 */
function reusable(dir: string, mode: ScaleMode, depth: number): LineageNode[] | null {
  let nodes: LineageNode[];
  try {
    nodes = readLineage(dir);
  } catch {
    return null;
  }
  if (lineageComplete(nodes, mode, depth, 1) || readLineageSettings(dir) === null) return nodes;
  return null;
}

/** The approved child at a lineage depth, on the first chain. */
function childAt(nodes: readonly LineageNode[], depth: number): LineageNode | null {
  return nodes.find((n) => n.status === "approved" && n.depth === depth && n.branch === 1) ?? null;
}
