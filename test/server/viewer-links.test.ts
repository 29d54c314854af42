import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { buildFixture, type Fixture, JOB, OTHER_JOB, RICH_TRIAL } from "./fixtures.js";

const SECRET = "host secret 7f3a";

/** A folder outside the jobs folder that looks like a trial folder holding a secret in every log. */
function fakeTrialFolder(dir: string): void {
  mkdirSync(join(dir, "agent"), { recursive: true });
  mkdirSync(join(dir, "verifier"), { recursive: true });
  writeFileSync(join(dir, "verifier", "test-stdout.txt"), `${SECRET}\n`);
  writeFileSync(
    join(dir, "agent", "trajectory.json"),
    JSON.stringify({ steps: [{ step_id: 1, source: "agent", message: SECRET }] }),
  );
  writeFileSync(
    join(dir, "agent", "recording.cast"),
    `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n${JSON.stringify([0.1, "o", SECRET])}\n`,
  );
}

/** Job and trial folders that are links: nothing outside the jobs folder is served through them. */
describe("viewer and linked folders", () => {
  let fx: Fixture;
  let outside: string;
  let viewer: ViewerApp;

  beforeAll(async () => {
    fx = await buildFixture();
    outside = mkdtempSync(join(tmpdir(), "longhaul-outside-"));
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
  });

  afterAll(async () => {
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  async function get(app: ViewerApp, path: string) {
    const res = await app.app.request(path);
    return { status: res.status, text: await res.text() };
  }

  async function expectNothingServed(jobId: string, trialId: string): Promise<void> {
    const base = `/api/jobs/${jobId}/trials/${trialId}`;
    for (const p of [`${base}/files/verifier/test-stdout.txt`, `${base}/trajectory`, `${base}/recording`]) {
      const res = await get(viewer, p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).not.toContain(SECRET);
    }
    const json = await get(viewer, base);
    expect(json.status).toBe(200);
    expect(JSON.parse(json.text)).toMatchObject({
      trajectory: "missing",
      recording: false,
      verifier: { stdout_tail: null },
    });
    const page = await get(viewer, `/jobs/${jobId}/trials/${trialId}`);
    expect(page.status).toBe(200);
    expect(page.text).not.toContain(SECRET);
  }

  it("reads nothing through a trial folder that is a link out of the jobs folder", async () => {
    const trialId = "alpha__terminus__m_x__a1";
    const target = join(outside, "trial");
    fakeTrialFolder(target);
    const trialDir = join(fx.jobsDir, JOB, trialId);
    rmSync(trialDir, { recursive: true, force: true });
    symlinkSync(target, trialDir);
    await expectNothingServed(JOB, trialId);
  });

  it("reads nothing through a job folder that is a link out of the jobs folder", async () => {
    const target = join(outside, "job");
    fakeTrialFolder(join(target, "beta__nop__a0"));
    const jobDir = join(fx.jobsDir, OTHER_JOB);
    rmSync(jobDir, { recursive: true, force: true });
    symlinkSync(target, jobDir);
    await expectNothingServed(OTHER_JOB, "beta__nop__a0");
  });

  it("still serves trial files when the jobs folder itself is reached through a link", async () => {
    const copy = join(outside, "real-jobs");
    cpSync(fx.jobsDir, copy, { recursive: true });
    const link = join(outside, "jobs-link");
    symlinkSync(copy, link);
    const linked = await createViewerApp({ jobsDir: link });
    try {
      const res = await get(linked, `/api/jobs/${JOB}/trials/${RICH_TRIAL}/files/verifier/test-stdout.txt`);
      expect(res.status).toBe(200);
      expect(res.text).toContain("7 passed");
      expect((await get(linked, `/jobs/${JOB}/trials/${RICH_TRIAL}`)).text).toContain("7 passed");
    } finally {
      await linked.close();
    }
  });
});
