import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { bundledTasksDir, checkPlainHarbor } from "../../src/runner/index.js";
import { loadTask } from "../../src/task/index.js";
import { tempDir } from "../runner/helpers.js";
import { TEST_BASE_IMAGE } from "../support/base-image.js";

/**
 * `longhaul task harbor-check`: a bundled task in a plain container of its own Dockerfile's image,
 * solution/ and tests/ copied in, no longhaul mount and no seed. The full sweep over every task is
 * the documented command (docs/benchmarks.md); here one task, and one that must fail.
 */
it("passes a bundled task as plain Harbor runs it, with the seed the kit drew recorded", {
  timeout: 600_000,
}, async () => {
  const task = await loadTask(join(bundledTasksDir(), "loan-schedule"));
  const r = await checkPlainHarbor(task, { logDir: tempDir("harbor-ok") });
  expect(r.detail).toMatch(/^oracle R = 1\.000 \(seed \d+, drawn\), nop R = 0\.000$/);
  expect(r.ok).toBe(true);
  const [oracle, nop] = r.runs;
  expect(oracle?.seedSource).toBe("drawn");
  expect(Object.values(oracle?.subtasks ?? {}).every((s) => s === 1)).toBe(true);
  expect(nop?.reward).toBe(0);
});

it("fails a task whose verifier scores without looking and records no seed", {
  timeout: 600_000,
}, async () => {
  const dir = join(tempDir("harbor-bad"), "loan-schedule");
  cpSync(join(bundledTasksDir(), "loan-schedule"), dir, { recursive: true });
  const ids = ["public_examples", "hidden_plain", "hidden_phrasing_amendments", "hidden_rate_change"];
  const all = [...ids, "hidden_prepay_balloon", "hidden_audit", "shipped_portfolio"]
    .map((id) => `"${id}": 1`)
    .join(", ");
  writeFileSync(join(dir, "tests", "test.sh"), `#!/bin/bash\necho '{${all}}' > /logs/verifier/reward.json\n`);
  const r = await checkPlainHarbor(await loadTask(dir), { logDir: tempDir("harbor-bad-logs") });
  expect(r.ok).toBe(false);
  expect(r.runs.map((x) => x.reward)).toEqual([1, 1]);
  expect(r.detail).toBe(
    "nop R = 1.000; oracle: reward-details.json records no drawn seed (seed_source absent); nop: reward-details.json records no drawn seed (seed_source absent)",
  );
});

/** A plain Harbor task of its own (no verifier kit): writes hello; test.sh writes reward.txt. */
function plainTask(toml: string, dockerfile: string | null): string {
  const dir = join(tempDir("harbor-plain"), "plain");
  for (const sub of ["environment", "solution", "tests"]) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(join(dir, "task.toml"), toml);
  writeFileSync(join(dir, "instruction.md"), "Write hello to /app/out.txt.\n");
  if (dockerfile !== null) writeFileSync(join(dir, "environment", "Dockerfile"), dockerfile);
  writeFileSync(join(dir, "solution", "solve.sh"), "#!/bin/bash\nmkdir -p /app\necho hello > /app/out.txt\n");
  writeFileSync(
    join(dir, "tests", "test.sh"),
    '#!/bin/bash\n[ "$(cat /app/out.txt 2>/dev/null)" = hello ] && r=1 || r=0\necho $r > /logs/verifier/reward.txt\n',
  );
  return dir;
}

it("passes a plain Harbor task without the verifier kit: it has no seed to record", {
  timeout: 600_000,
}, async () => {
  const dir = plainTask("", `FROM ${TEST_BASE_IMAGE}\nWORKDIR /app\n`);
  const r = await checkPlainHarbor(await loadTask(dir), { logDir: tempDir("harbor-plain-logs") });
  expect(r.detail).toBe("oracle R = 1.000, nop R = 0.000 (no verifier kit: no seed to record)");
  expect(r.ok).toBe(true);
});

it("runs over docker_image and leaves a Dockerfile beside it unbuilt, as Harbor does", {
  timeout: 600_000,
}, async () => {
  // The Dockerfile's RUN would fail the build.
  const dir = plainTask(
    `[environment]\ndocker_image = "${TEST_BASE_IMAGE}"\n`,
    `FROM ${TEST_BASE_IMAGE}\nRUN exit 7\n`,
  );
  const r = await checkPlainHarbor(await loadTask(dir), { logDir: tempDir("harbor-prebuilt-logs") });
  expect(r.detail).toBe("oracle R = 1.000, nop R = 0.000 (no verifier kit: no seed to record)");
  expect(r.ok).toBe(true);
});

it("fails a task without an image on its own line instead of stopping the others", async () => {
  const r = await checkPlainHarbor(await loadTask(plainTask("", null)), { logDir: tempDir("harbor-host") });
  expect(r).toEqual({
    task: "plain",
    ok: false,
    runs: [],
    detail: "no environment/Dockerfile or [environment] docker_image: Harbor runs a task in its image",
  });
});
