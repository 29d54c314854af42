import type { Attack } from "./harness.js";

/**
 * Links from the workdir into places only the verifier has, on a plain Harbor task whose check
 * compares the agent's output with an answer in tests/ (adv-plain-compare) or with a scratch copy
 * of it that the check makes in its own /tmp and home (adv-plain-scratch): the host removes them
 * before the verifier starts, whatever chain of links leads there.
 */
export const LINK_ATTACKS: Attack[] = [
  {
    name: "links its output to the answer in /tests",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: "ln -s /tests/expected.txt /app/out.txt",
  },
  {
    name: "links its output to the answer through a chain of relative links and a linked folder",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script:
      "ln -s ../tests /app/t; mkdir -p /app/a/b; ln -s ../../t/expected.txt /app/a/b/x; ln -s a/b/x /app/out.txt",
  },
  {
    name: "links its output to the answer through /proc/self/root",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: "ln -s /proc/self/root/tests/expected.txt /app/out.txt",
  },
  {
    // The verifier's /tmp and /root are fresh folders of its own, not the agent's: before, a link
    // into them was judged by what the agent's /tmp held (nothing) and kept, and the check
    // compared its own scratch copy of the answer with itself: R = 1.
    name: "links its output to the check's scratch copy of the answer in the verifier's fresh /tmp",
    anyLimits: true,
    tasks: ["adv-plain-scratch"],
    script: "ln -s /tmp/expected.txt /app/out.txt",
  },
  {
    name: "links its output to the check's scratch copy in the verifier's fresh home, through a linked folder",
    anyLimits: true,
    tasks: ["adv-plain-scratch"],
    script: "mkdir -p /root/.cache; ln -s /root/.cache /app/c; ln -s c/check/expected.txt /app/out.txt",
  },
  {
    // Not a way to a reward but out of the agent's column: before, the check's `cmp` waited on
    // the FIFO until the verifier's timeout, a grading error (the task's failure, not the agent's).
    name: "makes its output a FIFO, which no process is left to write when the check opens it",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: "mkfifo /app/out.txt",
  },
  {
    // As above: a read of a fresh pseudo-terminal master never returns.
    name: "links its output to /dev/ptmx, whose read never returns, and a second to /dev/zero",
    anyLimits: true,
    tasks: ["adv-plain-compare"],
    script: "ln -s /dev/ptmx /app/out.txt; ln -s /dev/zero /app/zero.txt",
  },
];
