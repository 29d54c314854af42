import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { JobStore } from "../../src/store/index.js";
import { buildFixture, JOB } from "./fixtures.js";

const REASON = "reward-details.json: subtask <hidden> has weight 0";

describe("the viewer shows grading errors with their reason", () => {
  let viewer: ViewerApp;
  let trialId = "";

  beforeAll(async () => {
    const fx = await buildFixture();
    // Turn one fixture trial into a grading error with a recorded reason.
    const base = fx.trials.find(
      (t) => t.job_id === JOB && t.outcome === "completed" && t.trial_id.startsWith("beta"),
    );
    if (base === undefined) throw new Error("fixture has no completed beta trial");
    trialId = base.trial_id;
    const store = await JobStore.open(fx.jobsDir);
    try {
      await store.recordTrial({
        ...base,
        outcome: "grading_error",
        reward: null,
        grading_errors: [REASON],
        error: { kind: "grading_error", message: "verifier contract violated" },
        usage: { ...base.usage, cost_known: false },
      });
    } finally {
      await store.close();
    }
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
  });
  afterAll(async () => viewer.close());

  it("on the trial list page and in its JSON", async () => {
    const html = await (await viewer.app.request(`/jobs/${JOB}?outcome=grading_error`)).text();
    expect(html).toContain('class="error grading-reason"');
    expect(html).toContain("reward-details.json: subtask &lt;hidden&gt; has weight 0");
    const api = (await (
      await viewer.app.request(`/api/jobs/${JOB}/trials?outcome=grading_error`)
    ).json()) as {
      rows: { trial_id: string; grading_reason: string | null }[];
    };
    expect(api.rows.find((r) => r.trial_id === trialId)?.grading_reason).toBe(REASON);
    const other = (await (await viewer.app.request(`/api/jobs/${JOB}/trials?outcome=completed`)).json()) as {
      rows: { grading_reason: string | null }[];
    };
    expect(other.rows.every((r) => r.grading_reason === null)).toBe(true);
  });

  it("on the trial page, next to the outcome, with an unknown cost", async () => {
    const html = await (await viewer.app.request(`/jobs/${JOB}/trials/${trialId}`)).text();
    expect(html).toMatch(/id="grading-reason">reward-details\.json: subtask &lt;hidden&gt; has weight 0</);
    expect(html).toContain("unknown (model has no price)");
  });
});
