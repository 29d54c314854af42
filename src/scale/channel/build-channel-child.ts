import { relative } from "node:path";
import { UserError } from "../../core/errors.js";
import { MUTANTS_DIR } from "../../task/mutants.js";
import type { ChildFiles, ChildMeta, ParentInfo } from "../child/build-child.js";
import { renameTask } from "../child/build-child.js";
import type { ResJson } from "../child/res-json.js";
import { appendSpecUpdate, sectionHeading, stepLabel } from "../child/spec-update.js";
import { treeDigest } from "../file-tree.js";
import { CHILD, readTaskFolder } from "../layout.js";
import type { Plan } from "../plan/schema.js";
import { CHANNEL_DIR, channelSolutionFiles, channelTestFiles } from "./materialize.js";
import { channelDeclFor } from "./plan-channel.js";
import { type ChannelDecl, channelAccess } from "./steps.js";

const enc = new TextEncoder();

/** The spec update of a program task's child: the whole channel, every level's steps in order. */
export function renderChannelUpdate(depth: number, decl: ChannelDecl): string {
  const replaces =
    depth > 1
      ? [
          `This update replaces the input description of the update at depth ${depth - 1}: the steps below are the whole channel, earlier levels' steps included.`,
          "",
        ]
      : [];
  return [sectionHeading(depth), "", ...replaces, channelAccess(decl), ""].join("\n");
}

/** The root's solve.sh and its other solution files (a channel child keeps the root's under res/). */
export function rootSolution(parent: ParentInfo): {
  solve: Uint8Array;
  partial: Uint8Array | undefined;
  others: Map<string, Uint8Array>;
} {
  const isRoot = parent.depth === 0;
  const solve = parent.solution.get(isRoot ? "solve.sh" : `${CHANNEL_DIR}/parent-solve.sh`);
  if (solve === undefined) throw new UserError(`${parent.dir}: the root's solve.sh is missing`);
  const partial = parent.solution.get(isRoot ? "partial.sh" : `${CHANNEL_DIR}/parent-partial.sh`);
  const others = new Map(
    [...parent.solution].filter(
      ([p]) =>
        p !== "solve.sh" &&
        p !== "partial.sh" &&
        // The root's mutants are proven against the root's hidden cases, not a child's.
        !p.startsWith(MUTANTS_DIR) &&
        (isRoot || !p.startsWith(`${CHANNEL_DIR}/`)),
    ),
  );
  if (isRoot && [...others.keys()].some((p) => p.startsWith(`${CHANNEL_DIR}/`)))
    throw new UserError(`${parent.dir}/solution/${CHANNEL_DIR}: RES keeps its own files under this name`);
  return { solve, partial, others };
}

/**
 * Every file of a program task's child, from the parent and the plan alone: the parent's
 * instruction plus the channel update; the root's tests/ byte for byte plus the channel; the
 * root's solution plus the wrapper that undoes the channel; the environment unchanged.
 */
export function buildChannelChildFiles(
  parent: ParentInfo,
  plan: Plan,
  meta: ChildMeta,
): ChildFiles & { decl: ChannelDecl } {
  const program = parent.program;
  if (program === null) throw new UserError(`${parent.dir} is not a program task`);
  const decl = channelDeclFor(parent.channel, program, plan);
  const req = parent.requirements;
  const files = new Map<string, Uint8Array>();
  files.set("task.toml", enc.encode(renameTask(parent.toml, meta.id)));
  files.set(
    "instruction.md",
    enc.encode(appendSpecUpdate(parent.instruction, renderChannelUpdate(meta.depth, decl))),
  );
  // Hidden inputs never live in the environment: it stays the parent's, byte for byte.
  for (const [p, b] of readTaskFolder(parent.dir, "environment")) files.set(`environment/${p}`, b);
  for (const [p, b] of req.originalTests) files.set(`tests/${p}`, b);
  for (const [p, b] of channelTestFiles(decl)) files.set(`tests/${p}`, b);
  const root = rootSolution(parent);
  for (const [p, b] of root.others) files.set(`solution/${p}`, b);
  for (const [p, b] of channelSolutionFiles(decl, root.solve, root.partial)) files.set(`solution/${p}`, b);
  const digest = treeDigest(parent.tree.tree);
  const res: ResJson = {
    format: "longhaul-res-child",
    version: 1,
    id: meta.id,
    depth: meta.depth,
    mode: meta.mode,
    branch: meta.branch,
    attempt: meta.attempt,
    workdir: parent.tree.workdir,
    parent: {
      id: parent.id,
      dir: relative(meta.childDir, parent.dir) || ".",
      depth: parent.depth,
      checksum: parent.checksum,
      env_digest: digest,
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
    env: { parent_digest: digest, digest, resources: parent.resources },
    steps: plan.steps.map((s, i) => ({
      label: stepLabel(meta.depth, i),
      transform: s.transform,
      targets: s.targets,
      produced: [],
      removed: [],
    })),
    channel: decl,
  };
  files.set(CHILD.resJson, enc.encode(`${JSON.stringify(res, null, 2)}\n`));
  return { files, res, decl };
}
