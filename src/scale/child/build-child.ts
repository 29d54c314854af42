import { readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { UserError } from "../../core/errors.js";
import { taskChecksum } from "../../task/checksum.js";
import { MUTANTS_DIR } from "../../task/mutants.js";
import { detectProgram } from "../channel/detect-program.js";
import { CHANNEL_DIR } from "../channel/materialize.js";
import type { ProgramInput } from "../channel/plan-channel.js";
import type { ChannelDecl } from "../channel/steps.js";
import { executableBits, treeDigest } from "../file-tree.js";
import { CHILD, RESERVED_SOLUTION_NAMES, readTaskFolder } from "../layout.js";
import { type AppliedPlan, nextResources } from "../plan/apply.js";
import type { Plan } from "../plan/schema.js";
import { extractRequirements, type TaskRequirements } from "../requirements.js";
import { childEnvironment, readTaskTreeOf, type TaskTree } from "../task-tree.js";
import { type ResJson, readResJson, type ScaleMode } from "./res-json.js";
import {
  appendSpecUpdate,
  type PublishedStep,
  renderSpecUpdate,
  restoreChain,
  stepLabel,
} from "./spec-update.js";
import { solveWrapper, testWrapper } from "./wrappers.js";

/** Everything about a parent (a root task or an approved child) that its children are built from. */
export interface ParentInfo {
  dir: string;
  id: string;
  depth: number;
  tree: TaskTree;
  requirements: TaskRequirements;
  instruction: string;
  toml: string;
  solution: Map<string, Uint8Array>;
  /** Paths the next plan may bind to. */
  resources: string[];
  /** Execute bits of the tree's executable files (a plan step bound to one restores them). */
  executables: ReadonlyMap<string, number>;
  checksum: string;
  root: { id: string; dir: string };
  /** A program task (kind (b)): the program its verifier runs on hidden inputs; null for an environment-data task. */
  program: ProgramInput | null;
  /** The parent's whole input channel (null at the root and for environment-data tasks). */
  channel: ChannelDecl | null;
}

export async function loadParent(dir: string): Promise<ParentInfo> {
  const requirements = extractRequirements(dir);
  const tree = readTaskTreeOf(dir);
  const res: ResJson | null = requirements.isChild ? readResJson(dir) : null;
  const id = res?.id ?? basename(dir);
  const solution = readTaskFolder(dir, "solution");
  if (!solution.has("solve.sh"))
    throw new UserError(`${join(dir, "solution/solve.sh")}: RES needs the reference solution`);
  if (res === null) {
    const clash = RESERVED_SOLUTION_NAMES.find((n) => solution.has(n));
    if (clash !== undefined)
      throw new UserError(`${join(dir, "solution", clash)}: RES keeps its own file under this name`);
  }
  const channel = res?.channel ?? null;
  const program: ProgramInput | null =
    channel !== null
      ? {
          program: channel.program,
          inputIndex: channel.input_index,
          inputKind: channel.input_kind,
          ...(channel.input_arg === undefined ? {} : { inputArg: channel.input_arg }),
          ...(channel.commands === undefined ? {} : { commands: channel.commands }),
        }
      : res === null && requirements.protected.reads.length === 0
        ? detectProgram(join(dir, "tests"), tree.workdir)
        : null;
  if (res === null && program !== null && [...solution.keys()].some((p) => p.startsWith(`${CHANNEL_DIR}/`))) {
    // Refused here, before planning: found while building a child, it would discard every candidate.
    throw new UserError(`${join(dir, "solution", CHANNEL_DIR)}: RES keeps its own files under this name`);
  }
  return {
    program,
    channel,
    dir,
    id,
    depth: res?.depth ?? 0,
    tree,
    requirements,
    instruction: readFileSync(join(dir, "instruction.md"), "utf8"),
    toml: readFileSync(join(dir, "task.toml"), "utf8"),
    solution,
    resources: res?.env.resources ?? requirements.protected.reads,
    executables: executableBits(join(dir, "environment"), tree.tree.keys()),
    checksum: await taskChecksum(dir),
    root: res === null ? { id, dir } : { id: res.root.id, dir: join(dir, res.root.dir) },
  };
}

export interface ChildMeta {
  id: string;
  depth: number;
  mode: ScaleMode;
  branch: number;
  attempt: number;
  /** Where the child folder will live (res.json records the parent relative to it). */
  childDir: string;
}

export interface ChildFiles {
  files: Map<string, Uint8Array>;
  res: ResJson;
}

const enc = new TextEncoder();

/** This level's published restore steps: the last applied step is undone first. */
export function publishedSteps(applied: AppliedPlan, depth: number): PublishedStep[] {
  const out: PublishedStep[] = [];
  for (let i = applied.steps.length - 1; i >= 0; i--) {
    for (const r of applied.steps[i]?.restore ?? [])
      out.push({ label: stepLabel(depth, i), why: r.why, run: r.run });
  }
  return out;
}

/** Every file of the child folder (by path relative to it), built only from the parent and the applied plan. */
export function buildChildFiles(
  parent: ParentInfo,
  plan: Plan,
  applied: AppliedPlan,
  meta: ChildMeta,
): ChildFiles {
  const req = parent.requirements;
  const workdir = parent.tree.workdir;
  const files = new Map<string, Uint8Array>();
  files.set("task.toml", enc.encode(renameTask(parent.toml, meta.id)));
  const access = applied.steps.map((s, i) => ({ label: stepLabel(meta.depth, i), access: s.access }));
  const mine = publishedSteps(applied, meta.depth);
  const section = renderSpecUpdate(meta.depth, workdir, access, mine);
  files.set("instruction.md", enc.encode(appendSpecUpdate(parent.instruction, section)));
  for (const [p, b] of childEnvironment(parent.tree, applied.env)) files.set(`environment/${p}`, b);
  for (const [p, b] of childTestFiles(req, workdir)) files.set(`tests/${p}`, b);
  // The root's solve.sh and partial.sh are kept beside the new wrappers; a child parent's
  // wrappers are replaced.
  const kept = { "solve.sh": CHILD.parentSolve, "partial.sh": CHILD.parentPartial } as const;
  for (const [p, b] of parent.solution) {
    // The root's mutants are proven against the root's hidden cases; a child does not inherit them.
    if (p.startsWith(MUTANTS_DIR)) continue;
    if (p !== "solve.sh" && p !== "partial.sh") files.set(`solution/${p}`, b);
    else if (parent.depth === 0) files.set(`solution/${kept[p]}`, b);
  }
  const chain = [...mine, ...restoreChain(parent.instruction)];
  files.set("solution/solve.sh", enc.encode(solveWrapper(chain, workdir, meta.depth)));
  // task check's honest partial: the same restore steps, then the root's partial solution.
  if (files.has(`solution/${CHILD.parentPartial}`))
    files.set(
      "solution/partial.sh",
      enc.encode(solveWrapper(chain, workdir, meta.depth, CHILD.parentPartial)),
    );
  const res: ResJson = {
    format: "longhaul-res-child",
    version: 1,
    id: meta.id,
    depth: meta.depth,
    mode: meta.mode,
    branch: meta.branch,
    attempt: meta.attempt,
    workdir,
    parent: {
      id: parent.id,
      dir: relative(meta.childDir, parent.dir) || ".",
      depth: parent.depth,
      checksum: parent.checksum,
      env_digest: treeDigest(parent.tree.tree),
    },
    root: { id: parent.root.id, dir: relative(meta.childDir, parent.root.dir) || "." },
    plan,
    protected: {
      goal_digest: req.protected.goalDigest,
      tests_digest: req.protected.testsDigest,
      rubric_digest: req.protected.rubricDigest,
      reads: req.protected.reads,
      facts: req.protected.facts,
    },
    env: {
      parent_digest: treeDigest(parent.tree.tree),
      digest: treeDigest(applied.env),
      resources: nextResources(parent.resources, applied),
    },
    steps: applied.steps.map((s, i) => ({
      label: stepLabel(meta.depth, i),
      transform: s.transform,
      targets: s.targets,
      produced: s.produced,
      removed: s.removed,
    })),
  };
  files.set(CHILD.resJson, enc.encode(`${JSON.stringify(res, null, 2)}\n`));
  return { files, res };
}

/**
 * tests/ of every child: the root's tests/ byte for byte at the same paths, except test.sh, which
 * becomes the wrapper; the original test.sh and the protected snapshot are kept beside it.
 */
export function childTestFiles(req: TaskRequirements, workdir: string): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  for (const [p, b] of req.originalTests) if (p !== "test.sh") out.set(p, b);
  const originalTest = req.originalTests.get("test.sh");
  if (originalTest === undefined) throw new UserError("tests/test.sh is missing");
  out.set(CHILD.parentTest, originalTest);
  out.set("test.sh", enc.encode(testWrapper(req.protected.reads, workdir)));
  for (const [p, b] of req.snapshot) out.set(`${CHILD.snapshotDir}/${p}`, b);
  return out;
}

/**
 * task.toml stays the parent's, except an explicit `[task] name`, which becomes the child's id:
 * children sit side by side in one dataset folder, where two tasks may not share a name.
 */
export function renameTask(toml: string, id: string): string {
  const lines = toml.split("\n");
  let table = "";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(line);
    if (header !== null) table = header[1] ?? "";
    else if (table === "task" && /^\s*name\s*=/.test(line)) lines[i] = `name = ${JSON.stringify(id)}`;
  }
  return lines.join("\n");
}
