import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_TIMER_MS, timerMs } from "../../src/core/index.js";
import { runTrial } from "../../src/runner/index.js";
import { getSandboxProvider } from "../../src/sandbox/registry.js";
import { loadTask } from "../../src/task/index.js";
import { tempDir } from "./helpers.js";

/**
 * A time limit past what a timer can wait (2^31 − 1 ms, ~24.8 days), e.g. a task's 60 s times
 * `--timeout-multiplier 1e7`, means "wait as long as a timer can": setTimeout would fire such a
 * delay at once, ending every agent phase as a timeout within a second.
 */
describe("time limits longer than a timer can wait", () => {
  it("are capped, not fired at once", () => {
    expect(timerMs(60)).toBe(60_000);
    expect(timerMs(60 * 1e7)).toBe(MAX_TIMER_MS);
    expect(timerMs(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS);
    expect(timerMs(-1)).toBe(0);
  });

  it("let the oracle finish under --timeout-multiplier 1e7", async () => {
    const dir = join(tempDir("huge-timeout"), "slow-oracle");
    const files: Record<string, string> = {
      "instruction.md": "write done\n",
      "task.toml": "[agent]\ntimeout_sec = 60\n[verifier]\ntimeout_sec = 60\n",
      "solution/solve.sh": "#!/bin/bash\nsleep 1.5\necho done > /app/out.txt\n",
      "tests/test.sh":
        '#!/bin/bash\nif [ "$(cat /app/out.txt 2>/dev/null)" = done ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(dir, rel, ".."), { recursive: true });
      writeFileSync(join(dir, rel), text, { mode: 0o755 });
    }
    const result = await runTrial({
      jobId: "j",
      trialId: "slow-oracle",
      trialDir: join(tempDir("trial"), "t"),
      task: await loadTask(dir),
      agent: "oracle",
      agentOptions: {},
      model: null,
      attempt: 1,
      seed: 7,
      provider: getSandboxProvider("bwrap"),
      timeoutMultiplier: 1e7,
      signal: new AbortController().signal,
    });
    expect([result.outcome, result.reward]).toEqual(["completed", 1]);
    expect(result.timing.agent_sec).toBeGreaterThan(1.4);
  }, 60_000);
});
