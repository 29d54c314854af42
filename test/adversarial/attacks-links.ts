import type { Attack } from "./harness.js";

/**
 * Links from the workdir into places only the verifier has, on a plain Harbor task whose check
 * compares the agent's output with an answer in tests/ (adv-plain-compare): the host removes
 * them before the verifier starts, whatever chain of links leads there.
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
];
