import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { buildFixture, type Fixture, JOB, RICH_TRIAL } from "./fixtures.js";

/**
 * A trajectory near the 64 MB limit: 1.3 million small steps. Parsed whole, its trial page took
 * seconds and hundreds of MB per view, blocking every other request.
 */
const STEPS = 1_300_000;

describe("viewer with a huge trajectory", () => {
  let fx: Fixture;
  let viewer: ViewerApp;

  beforeAll(async () => {
    fx = await buildFixture();
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
    // Numbered steps at both ends (the ones shown), the same small step repeated between them.
    const numbered = (from: number, to: number) =>
      Array.from(
        { length: to - from + 1 },
        (_, i) => `{"step_id":${from + i},"source":"agent","message":"ok"}`,
      );
    const middle = '{"step_id":0,"source":"agent","message":"ok"},'.repeat(STEPS - 400);
    // Agent-written text: the page must escape it however the file is read.
    const end = `{"step_id":${STEPS},"source":"agent","message":"<b>the end</b>"}`;
    const steps = `${numbered(1, 200).join(",")},${middle}${numbered(STEPS - 199, STEPS - 1).join(",")},${end}`;
    writeFileSync(
      join(fx.jobsDir, JOB, RICH_TRIAL, "agent", "trajectory.json"),
      `{"agent":{"name":"big","version":"1"},"steps":[${steps}]}`,
    );
  });

  afterAll(async () => {
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  it("answers the trial page quickly, with both ends and what was left out", async () => {
    const t0 = performance.now();
    const res = await viewer.app.request(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    const text = await res.text();
    const ms = performance.now() - t0;
    expect(res.status).toBe(200);
    expect(text).toContain("1,300,000 steps");
    expect(text).toContain("1,299,800 of 1,300,000 steps not shown (steps 101–1,299,900 in file order)");
    expect(text).toMatch(
      /The file is \d+\.\d MB, so only the steps shown were read; the others were counted/,
    );
    expect(text).toContain('<div class="meta">#1 agent');
    expect(text).toContain('<div class="meta">#1299901 agent');
    expect(text).toContain("&lt;b&gt;the end&lt;/b&gt;");
    expect(text).not.toContain("<b>the end</b>");
    // Parsed whole it took 4 s on an idle machine; read at its ends, 0.3 s. The bound is loose
    // because CI runs many files side by side on 2 cores; the figures are in bench/.
    expect(ms).toBeLessThan(10_000);
  });

  it("reports the trajectory as readable in the trial's JSON without parsing it whole", async () => {
    const t0 = performance.now();
    const res = await viewer.app.request(`/api/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { trajectory: string }).trajectory).toBe("ok");
    expect(performance.now() - t0).toBeLessThan(10_000);
  });

  it("shows any window of steps, read the same way, and refuses a bad window", async () => {
    const from = STEPS - 199;
    const t0 = performance.now();
    const res = await viewer.app.request(`/jobs/${JOB}/trials/${RICH_TRIAL}?steps_from=${from}`);
    const text = await res.text();
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(res.status).toBe(200);
    expect(text).toContain("Steps 1,299,801–1,300,000 of 1,300,000 (in file order)");
    expect(text).toContain(`<a href="?steps_from=${from - 200}#trajectory">previous steps</a>`);
    expect(text).not.toContain("next steps");
    expect(text).toContain('<div class="meta">#1299801 agent');
    expect(text).toContain("&lt;b&gt;the end&lt;/b&gt;");
    const bad = await viewer.app.request(`/jobs/${JOB}/trials/${RICH_TRIAL}?steps_from=0`);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("steps_from");
  });
});
