import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { channelKitPath } from "../../src/scale/channel/steps.js";
import { kitPath } from "../../src/task/verifier-kit.js";

/**
 * A scaled interactive child's tests/: the kit, and a stream channel in res/ that base64-encodes
 * and reverses every line the program reads. The script asks the kit for a program's argv (with
 * `cat` standing for the sealed program), runs it twice, and prints the argv and what came out.
 */
function scaledTests(): string {
  const tests = mkdtempSync(join(tmpdir(), "longhaul-test-stream-filter-"));
  mkdirSync(join(tests, "res"));
  copyFileSync(kitPath(), join(tests, "lh.py"));
  copyFileSync(channelKitPath(), join(tests, "res", "res_channel.py"));
  const steps = [
    { name: "line-base64", seed: 1, params: {} },
    { name: "line-reverse", seed: 2, params: {} },
  ];
  writeFileSync(
    join(tests, "res", "channel.json"),
    JSON.stringify({ program: "/app/bot.py", input_index: 1, input_kind: "stream", steps }),
  );
  return tests;
}

const SCRIPT = `
import json, subprocess, sys
sys.path.insert(0, sys.argv[1])
import lh
argv = lh._through_stream(["python3", "/app/bot.py"], ["cat"])
outs = [subprocess.run(argv, input=b"move 1 2\\nquit\\n", capture_output=True).stdout.decode() for _ in range(2)]
print(json.dumps({"argv": argv, "outs": outs}))
`;

describe("a stream channel's filter (verifier kit)", () => {
  it("runs the channel kit compiled once, isolated, and encodes every line", () => {
    const tests = scaledTests();
    const r = spawnSync("/usr/bin/python3", ["-I", "-c", SCRIPT, tests], {
      env: { PATH: "/usr/bin:/bin", LONGHAUL_VERIFIER_DIR: join(tests, "out") },
      encoding: "utf8",
    });
    expect(r.status, r.stderr).toBe(0);
    const { argv, outs } = JSON.parse(r.stdout.trim()) as { argv: string[]; outs: string[] };
    // The interpreter, isolated and without site; a compiled copy outside the read-only tests/.
    expect(argv.slice(1, 3)).toEqual(["-I", "-S"]);
    expect(argv[3]).toMatch(/\/lh-channel-[^/]+\/res_channel\.pyc$/);
    expect(argv.slice(4)).toEqual(["stream", join(tests, "res", "channel.json"), "--", "cat"]);
    const encode = (line: string): string => [...Buffer.from(line).toString("base64")].reverse().join("");
    expect(outs).toEqual([
      `${encode("move 1 2")}\n${encode("quit")}\n`,
      `${encode("move 1 2")}\n${encode("quit")}\n`,
    ]);
  });
});
