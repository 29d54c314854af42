import { CHILD, shq } from "../layout.js";
import type { PublishedStep } from "./spec-update.js";

/**
 * tests/test.sh of a child. The checks compare the agent's output with ground facts read from
 * environment files; the child changed those files, so this wrapper first puts the original
 * files back (from the protected snapshot beside it) and then runs the original verifier, kept
 * byte for byte beside it. A file it cannot put back is a verifier failure, never a score.
 */
export function testWrapper(reads: readonly string[], workdir: string): string {
  const lines = [
    "#!/bin/bash",
    "# RES child verifier: put back the original environment files the checks read (kept under",
    `# tests/${CHILD.snapshotDir}), then run the original verifier (tests/${CHILD.parentTest}) unchanged.`,
    'here="$(cd "$(dirname "$0")" && pwd)"',
    `wd="\${LONGHAUL_WORKDIR:-${workdir}}"`,
    "put_back() {",
    '  mkdir -p "$(dirname "$wd/$1")" && rm -rf "$wd/$1" &&',
    `    cp "$here/${CHILD.snapshotDir}/$1" "$wd/$1" ||`,
    '    { echo "RES verifier: could not put back $1 in $wd" >&2; exit 1; }',
    "}",
    ...reads.map((p) => `put_back ${shq(p)}`),
    `exec bash "$here/${CHILD.parentTest}" "$@"`,
    "",
  ];
  return lines.join("\n");
}

/**
 * solution/solve.sh of a child: every published restore step, newest update first, each run by
 * `sh` from the workdir exactly as the restore check runs it (so a step's own exit status is what
 * counts, with no errexit of ours inside it), then the original reference solution (kept beside
 * it) unchanged.
 */
export function solveWrapper(
  chain: readonly PublishedStep[],
  workdir: string,
  depth: number,
  original: string = CHILD.parentSolve,
): string {
  const steps = chain.flatMap((s) => [
    `# ${s.label}: ${s.why.replace(/\s+/g, " ").trim()}`,
    `sh -c ${shq(s.run.trim())} ||`,
    `  { echo "restore step ${s.label} failed" >&2; exit 1; }`,
  ]);
  return [
    "#!/bin/bash",
    `# RES child reference solution (depth ${depth}): undo the environment updates with the public`,
    `# restore steps of instruction.md, then run the original ${original === CHILD.parentSolve ? "reference" : "partial"} solution (${original}).`,
    `cd ${shq(workdir)} || exit 1`,
    ...steps,
    `exec bash "$(dirname "$0")/${original}" "$@"`,
    "",
  ].join("\n");
}
