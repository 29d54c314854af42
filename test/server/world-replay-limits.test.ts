import { mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { WORLD_RUN_FILE } from "../../src/world/trial/world-trial.js";
import { buildWorldJob, WORLD_JOB, WORLD_TRIAL } from "../support/world-run.js";

describe("world replay of an oversized run file", () => {
  let root: string;
  let viewer: ViewerApp;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), "longhaul-world-limits-"));
    await buildWorldJob(join(root, "jobs"));
    viewer = await createViewerApp({ jobsDir: join(root, "jobs") });
  });

  afterAll(async () => {
    await viewer?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it("refuses a run file over 64 MB with 422 before reading it, and the page still shows", async () => {
    // Sparse: it costs no disk, but reading it whole would cost its full size in memory.
    const path = join(root, "jobs", WORLD_JOB, WORLD_TRIAL, WORLD_RUN_FILE);
    writeFileSync(path, "");
    truncateSync(path, 64 * 1024 * 1024 + 1);
    const res = await viewer.app.request(`/api/jobs/${WORLD_JOB}/trials/${WORLD_TRIAL}/world-replay`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toContain("larger than 64 MB");
    expect((await viewer.app.request(`/jobs/${WORLD_JOB}/trials/${WORLD_TRIAL}`)).status).toBe(200);
  });
});
