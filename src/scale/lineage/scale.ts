import { existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import pLimit from "p-limit";
import { allOrStop, linkedController } from "../../core/all-or-stop.js";
import { InputError, UserError } from "../../core/errors.js";
import { checkOutFolder } from "../../core/user-files.js";
import type { SandboxProvider } from "../../sandbox/types.js";
import { loadTask } from "../../task/load.js";
import { builtRootDir, materializeBuiltData } from "../built-data.js";
import { ChannelProposer } from "../channel/plan-channel.js";
import { loadParent, type ParentInfo } from "../child/build-child.js";
import { MAX_DEPTH, type ScaleMode } from "../child/res-json.js";
import { treeDigest } from "../file-tree.js";
import { libraryTransforms } from "../plan/libraries.js";
import type { Proposer } from "../plan/proposer.js";
import type { LibraryName } from "../plan/schema.js";
import { SeededProposer } from "../plan/seeded-proposer.js";
import { evaluateTarget, type TargetAgent } from "../target/evaluate-target.js";
import type { ImageMemo } from "../verify/oracle-trials.js";
import { blank, grow } from "./grow.js";
import { clearLeftovers, leftovers } from "./leftovers.js";
import {
  approvedParent,
  chainStart,
  childId,
  idsToGrow,
  isFolder,
  type ResumeRead,
  readForResume,
} from "./resume.js";
import { type RootChecks, rootVerified, verifyRoot } from "./root-check.js";
import {
  checkResumable,
  LINEAGE_SETTINGS,
  type LineageSettings,
  resumeSettings,
  widened,
  writeLineageSettings,
} from "./settings.js";
import { LINEAGE_JSONL, type LineageNode, LineageStore, TARGET_TRIALS_DIR } from "./store.js";

export { TARGET_TRIALS_DIR } from "./store.js";

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
  /**
   * Adaptive stop: this agent attempts every approved child; a recursive chain stops below a
   * child it fails in every attempt (docs/scale.md).
   */
  target?: TargetAgent;
  /** Scales the timeouts of the verifier's oracle trials and the target agent's (`--timeout-multiplier`). */
  timeoutMultiplier?: number;
  /** Chains (recursive) or independent children grown at once (`scale -n`; default 1). */
  concurrency?: number;
  /** Root oracle checks shared by several lineages of one root (`scale experiment`): run once. */
  rootChecks?: RootChecks;
  /** The start of every child's id (default: the root task's id); keeps ids of several lineages apart. */
  idPrefix?: string;
  /**
   * Go on with the lineage already in `outDir` (`scale --resume`): its recorded nodes are kept,
   * and each chain grows from where it stopped, exactly as if it had not (docs/scale.md).
   */
  resume?: boolean;
}

export interface ScaleResult {
  outDir: string;
  /** Every node of the lineage (a resumed one's earlier nodes too), by chain and depth. */
  nodes: LineageNode[];
  /** Nodes this call decided (on a resume, those added to the lineage). */
  grown: number;
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
  checkOutFolder(outDir, "--out");
  const resume = o.resume === true;
  const held = existsSync(join(outDir, LINEAGE_JSONL));
  if (held && !resume) {
    throw new UserError(
      `${outDir} already holds a lineage (${LINEAGE_JSONL}); continue it with --resume, or choose another --out`,
    );
  }
  const given = resolve(o.taskDir);
  const recorded = resume ? resumeSettings(outDir) : null;
  // A lineage grown over the equivalent root of a task whose data the build makes goes on from it.
  const built = builtRootDir(outDir, given);
  let taskDir = recorded !== null && resolve(recorded.root) === built && isFolder(built) ? built : given;
  if (recorded !== null && resolve(recorded.root) === taskDir && !isFolder(taskDir)) {
    throw new InputError(
      join(outDir, LINEAGE_SETTINGS),
      undefined,
      "root",
      `field "root": ${recorded.root}: no such task folder; give the root task's folder: longhaul scale TASK --resume --out ${outDir}`,
    );
  }
  if (outDir === taskDir || outDir.startsWith(`${taskDir}/`)) {
    // Children record their parent's checksum; writing them inside the root would change it.
    throw new UserError(`--out ${outDir} is inside the task folder ${taskDir}; choose a folder outside it`);
  }
  let task = await loadTask(taskDir);
  let root = await loadParent(taskDir);
  if (root.requirements.isChild)
    throw new UserError(`${taskDir} is a RES child; scale its root task instead`);
  if (root.requirements.protected.reads.length === 0 && root.program === null) {
    // Data a RUN makes at build time: scaled through an equivalent root whose context holds it.
    const made = await materializeBuiltData(taskDir, outDir, o.log ?? (() => {}));
    if (made !== null) {
      taskDir = made;
      task = await loadTask(taskDir);
      root = await loadParent(taskDir);
    }
  }
  if (root.requirements.protected.reads.length === 0 && root.program === null) {
    if (root.tree.tree.size === 0) {
      throw new UserError(
        `${taskDir}: not scalable: no file of environment/ reaches the agent's workdir ${root.tree.workdir} (RES transforms those files: a Dockerfile COPY puts them there at the same relative path, or a RUN makes them at build time), nor does its build leave any there, and no Python grader runs a program of the workdir on generated inputs (a program task)`,
      );
    }
    throw new UserError(
      `${taskDir}: not scalable: neither tests/ nor (when the tests name none) instruction.md or solution/ name a data file of its environment (an environment-data task), and no Python grader runs a program of the workdir on generated inputs (a program task)`,
    );
  }
  const transforms = libraryTransforms(o.library);
  if (transforms.length === 0) throw new UserError(`the ${o.library} transform library is empty`);
  const log = o.log ?? (() => {});
  // A program task's levels are channel steps (docs/scale.md), planned by the channel planner.
  if (root.program !== null && o.proposer !== undefined && o.proposer.name !== "seeded") {
    log(
      `${root.id} is a program task: its channel steps are planned by the channel planner, not ${o.proposer.name}`,
    );
  }
  const proposer: Proposer =
    root.program !== null ? new ChannelProposer(root.program) : (o.proposer ?? new SeededProposer());
  const rootId = safeId(root.id);
  const prefix = o.idPrefix === undefined ? rootId : safeId(o.idPrefix);
  const target = o.target;
  const settings: LineageSettings = {
    format: "longhaul-res-lineage",
    version: 1,
    root: taskDir,
    root_checksum: task.checksum,
    depth: o.depth,
    children: o.children,
    library: o.library,
    mode: o.mode,
    seed: o.seed,
    steps: o.stepsPerLevel ?? 2,
    repairs: o.repairs ?? 3,
    proposer: proposer.name,
    trials: o.trials !== false,
    target:
      target === undefined ? null : { agent: target.agent, model: target.model, attempts: target.attempts },
    id_prefix: prefix,
  };
  // Everything a resume could refuse is checked before anything in the lineage folder changes.
  const previous = recorded === null ? null : resumable(outDir, recorded, settings);
  const existing = previous?.nodes ?? [];
  const leftover = leftovers(outDir, idsToGrow(existing, o.mode, o.depth, o.children, prefix), resume);
  const parents = new Map<number, ParentInfo>();
  for (let b = 1; b <= o.children; b++) {
    const start = chainStart(existing, o.mode, b);
    if (!start.done && start.from <= o.depth && start.parent !== null)
      parents.set(b, await approvedParent(outDir, start.parent));
  }
  // The root's own oracle, before anything is planned or written (once per lineage: a resume of
  // a lineage whose root node records it skips it; the root's checksum is compared above).
  // One image lookup per environment for the whole run: a program task's children keep the root's.
  const images: ImageMemo = new Map();
  const rootCheck =
    settings.trials && !rootVerified(existing) ? await verifyRoot(taskDir, o, log, images) : null;
  mkdirSync(outDir, { recursive: true });
  const store = new LineageStore(outDir);
  previous?.read.mend(log);
  writeLineageSettings(outDir, previous?.settings ?? settings);
  if (resume) {
    store.sync(existing);
    // Candidates a killed run was verifying: they are proposed and verified again.
    removeStaging(outDir);
    clearLeftovers(outDir, leftover, log);
  }
  const nodes: LineageNode[] = [...existing];
  const record = (n: LineageNode): void => {
    store.add(n);
    nodes.push(n);
  };
  const evaluate =
    target === undefined
      ? undefined
      : (childDir: string, id: string) =>
          evaluateTarget({
            target,
            childDir,
            childId: id,
            trialsDir: join(outDir, TARGET_TRIALS_DIR, id),
            provider: o.provider,
            seed: o.seed,
            timeoutMultiplier: o.timeoutMultiplier ?? 1,
            ...(o.signal === undefined ? {} : { signal: o.signal }),
            log,
          });
  if (!existing.some((n) => n.status === "root")) {
    record({
      ...blank(rootId, null, "root", 0, 0, null),
      dir: taskDir,
      env_digest: treeDigest(root.tree.tree),
      ...(rootCheck === null ? {} : { checks: [rootCheck.check], seconds: rootCheck.seconds }),
    });
  }
  // A failure in one chain stops the others (they share the machine and the lineage folder).
  const { stop, release } = linkedController(o.signal);
  const run: ScaleOptions = { ...o, signal: stop.signal };
  const steps = o.stepsPerLevel ?? 2;
  const base = {
    o: run,
    outDir,
    proposer,
    transforms,
    log,
    record,
    images,
    ...(evaluate === undefined ? {} : { evaluate }),
  };
  const unit = async (b: number): Promise<void> => {
    // Queued behind a chain that failed: not started.
    if (stop.signal.aborted) return;
    const start = chainStart(existing, o.mode, b);
    if (start.done) return;
    if (o.mode === "independent") {
      // Nothing descends from an independent child, so its target result is only recorded.
      await grow({
        ...base,
        parent: root,
        id: childId(prefix, o.mode, b, 1),
        depth: 1,
        branch: b,
        steps: steps * o.depth,
      });
      return;
    }
    let parent: ParentInfo = parents.get(b) ?? root;
    if (start.from > 1 && start.from <= o.depth) log(`chain ${b}: resuming at depth ${start.from}`);
    for (let k = start.from; k <= o.depth && !stop.signal.aborted; k++) {
      const id = childId(prefix, o.mode, b, k);
      const grown = await grow({ ...base, parent, id, depth: k, branch: b, steps });
      if (grown === null) break;
      if (grown.target !== undefined && !grown.target.passed) {
        log(
          `${id}: the target ${grown.target.agent} failed all ${grown.target.attempts} attempt(s); chain ${b} stops at depth ${k}`,
        );
        break;
      }
      parent = grown.info;
    }
  };
  try {
    // Chains (recursive) or children of the root (independent) are independent of one another:
    // up to `concurrency` of them grow at once; a chain's own levels stay one after the other.
    const limit = pLimit(Math.max(1, o.concurrency ?? 1));
    await allOrStop(
      Array.from({ length: o.children }, (_, i) => limit(() => unit(i + 1))),
      stop,
    );
    o.signal?.throwIfAborted();
  } finally {
    release();
    proposer.close?.();
    store.close();
    removeStaging(outDir);
  }
  // In decision order on disk (lineage.jsonl); by chain and depth for the caller.
  nodes.sort((x, y) => rank(x) - rank(y) || x.branch - y.branch || x.depth - y.depth);
  return { outDir, nodes, grown: nodes.length - existing.length };
}

/** The lineage to resume, once its settings are shown to match this run's; nothing is changed yet. */
function resumable(
  outDir: string,
  recorded: LineageSettings,
  run: LineageSettings,
): { nodes: LineageNode[]; read: ResumeRead; settings: LineageSettings } {
  checkResumable(outDir, recorded, run);
  const read = readForResume(outDir);
  return { nodes: read.nodes, read, settings: widened(recorded, run) };
}

function rank(n: LineageNode): number {
  return n.status === "root" ? 0 : 1;
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
