import { execFileSync } from "node:child_process";
import { dirname } from "node:path";
import { kitPath } from "../../src/task/verifier-kit.js";

/**
 * Runs a Python snippet with the canonical kit importable as `lh` (and `json` imported) and
 * returns what it printed last, parsed as JSON. One interpreter per call: batch many checks.
 */
export function py<T>(body: string, env: Record<string, string> = {}): T {
  const script = `import sys, json\nsys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})\nimport lh\n${body}`;
  const out = execFileSync("/usr/bin/python3", ["-I", "-c", script], {
    env: { PATH: "/usr/bin:/bin", ...env },
    encoding: "utf8",
    maxBuffer: 64 << 20,
  });
  return JSON.parse(out.trim().split("\n").pop() ?? "null") as T;
}
