import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deadlineHint } from "../../src/runner/check-task.js";
import { bundledTasksDir } from "../../src/runner/index.js";
import { runOneTrial } from "../support/one-trial.js";

/**
 * A candidate whose every program sleeps forever must cost the verifier its time once and be
 * scored (R = 0, outcome completed), not end as a grading error at the verifier's hard limit.
 * Two bundled graders of different kinds: blob-count calls its program through lh.run, one call
 * per hidden case; lander-pilot's referee starts the pilot itself (lh.sealed_argv), once per
 * episode. Their verifier limits are cut to 30 s here so the test is quick; the deadline the
 * runner passes is then 20 s after the verifier starts.
 */
const CASES = [
  ["blob-count", "blobs.py"],
  ["lander-pilot", "pilot.py"],
] as const;

function hangingCopy(task: string, program: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "longhaul-test-hang-")), task);
  cpSync(join(bundledTasksDir(), task), dir, { recursive: true });
  const toml = join(dir, "task.toml");
  const text = readFileSync(toml, "utf8");
  const cut = text.replace(/(\[verifier\][^[]*?timeout_sec\s*=\s*)\d+(\.\d+)?/, "$130");
  if (cut === text) throw new Error(`${toml}: no [verifier] timeout_sec to cut`);
  writeFileSync(toml, cut);
  writeFileSync(
    join(dir, "solution", "solve.sh"),
    `#!/bin/bash\nprintf 'import time\\nwhile True:\\n    time.sleep(60)\\n' > /app/${program}\n`,
  );
  return dir;
}

// Each case spends most of its time waiting on the run deadline: the two wait side by side.
describe.concurrent("a candidate that hangs on every call", () => {
  it.each(CASES)("%s: scored 0 within the verifier's limit", { timeout: 120_000 }, async (task, program) => {
    const trialDir = mkdtempSync(join(tmpdir(), "longhaul-test-hang-trial-"));
    const t0 = performance.now();
    const r = await runOneTrial({
      dir: hangingCopy(task, program),
      agent: "oracle",
      seed: 7,
      jobId: "hang",
      trialId: `${task}-hang`,
      trialDir,
      imagesDir: mkdtempSync(join(tmpdir(), "longhaul-test-hang-img-")),
    });
    const seconds = (performance.now() - t0) / 1000;
    expect(r.outcome).toBe("completed");
    expect(r.reward).toBe(0);
    expect(seconds).toBeLessThan(30 + 15);
    const details = JSON.parse(
      readFileSync(join(trialDir, "verifier", "logs", "reward-details.json"), "utf8"),
    ) as { subtasks: Record<string, { message: string }>; run_deadline_reached?: boolean };
    expect(details.run_deadline_reached).toBe(true);
    const messages = Object.values(details.subtasks).map((s) => s.message);
    expect(messages.some((m) => /time for candidate programs ran out/.test(m))).toBe(true);
    // `task check` tells an author whose oracle this happens to why its subtasks scored 0.
    const cut = r.subtasks.filter((s) => /ran out/.test(s.message ?? "")).map((s) => s.id);
    expect(cut.length).toBeGreaterThan(0);
    expect(deadlineHint(r)).toBe(
      ` — the verifier's run deadline cut ${cut.join(", ")} short: raise [verifier] timeout_sec or make the grader faster`,
    );
    expect(deadlineHint({ ...r, subtasks: r.subtasks.map((s) => ({ ...s, message: "ok" })) })).toBe("");
  });
});
