import { spawnSync } from "node:child_process";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { kitPath } from "../../src/task/verifier-kit.js";

/**
 * A referee reads a bot's answers a line at a time. A bot that prints a line that never ends
 * would have `readline()` hold all of it in the grader's memory; through the kit's
 * `candidate_output` one read returns at most the kit's OUTPUT_CAP (32 MB, what `run()` keeps of
 * a stream), and what was read counts as the candidate's output.
 */
describe("candidate_output (verifier kit)", () => {
  it("returns at most OUTPUT_CAP a read from a line that never ends, and counts it", () => {
    const script = `
import json, subprocess, sys
sys.path.insert(0, ${JSON.stringify(dirname(kitPath()))})
import lh
BOT = ["python3", "-c", "import sys\\nfor _ in range(96): sys.stdout.write('x' * (1 << 20))"]
p = subprocess.Popen(BOT, stdout=subprocess.PIPE, text=True)
out = lh.candidate_output(p.stdout)
first = len(out.readline())
rest = sum(len(part) for part in out)
p.wait()
print(json.dumps([first, rest, lh._CANDIDATE_OUTPUT[0], lh.OUTPUT_CAP]))
`;
    const r = spawnSync("/usr/bin/python3", ["-I", "-c", script], {
      env: { PATH: "/usr/bin:/bin", LONGHAUL_WORKDIR: "/nonexistent-app" },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const [first, rest, counted, cap] = JSON.parse(r.stdout.trim()) as number[];
    expect(cap).toBe(32 << 20);
    expect(first).toBe(cap);
    expect(rest).toBe(96 * (1 << 20) - (cap ?? 0));
    expect(counted).toBe(96 * (1 << 20));
  });
});
