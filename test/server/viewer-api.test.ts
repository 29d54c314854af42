import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { JobStore } from "../../src/store/index.js";
import { buildFixture, type Fixture, INSTRUCTION, JOB, OTHER_JOB, RICH_TRIAL } from "./fixtures.js";

interface ListBody {
  total: number;
  offset: number;
  limit: number;
  rows: {
    trial_id: string;
    outcome: string;
    reward: number | null;
    model: string | null;
    task_name: string;
  }[];
}

describe("viewer JSON API and pages", () => {
  let fx: Fixture;
  let viewer: ViewerApp;
  let jobTrials: TrialResult[];

  beforeAll(async () => {
    fx = await buildFixture();
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
    jobTrials = fx.trials.filter((t) => t.job_id === JOB);
  });

  afterAll(async () => {
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  async function get(path: string): Promise<{ status: number; body: unknown; text: string }> {
    const res = await viewer.app.request(path);
    const text = await res.text();
    const isJson = res.headers.get("content-type")?.includes("json") ?? false;
    return { status: res.status, body: isJson ? JSON.parse(text) : null, text };
  }

  async function list(query: string): Promise<ListBody> {
    const res = await get(`/api/jobs/${JOB}/trials${query}`);
    expect(res.status, res.text).toBe(200);
    return res.body as ListBody;
  }

  it("lists jobs newest first with trial counts and mean R as report counts it", async () => {
    const { status, body } = await get("/api/jobs");
    expect(status).toBe(200);
    // Infrastructure failures left out, a grading error as R = 0.
    expect(jobTrials.some((t) => t.outcome === "grading_error")).toBe(true);
    const scored = jobTrials.filter((t) => t.outcome !== "infra_error").map((t) => t.reward ?? 0);
    const mean = scored.reduce((a, b) => a + b, 0) / scored.length;
    const jobs = (body as { jobs: { id: string; trials: number; mean_reward: number | null }[] }).jobs;
    expect(jobs.map((j) => j.id)).toEqual([JOB, OTHER_JOB]);
    expect(jobs[0]?.trials).toBe(30);
    expect(jobs[0]?.mean_reward).toBeCloseTo(mean, 10);
    expect(jobs[1]).toMatchObject({ trials: 1, mean_reward: 1 });
  });

  it("returns a job with the values its trials can be filtered by", async () => {
    const { body } = await get(`/api/jobs/${JOB}`);
    expect(body).toMatchObject({
      job: { id: JOB, trials: 30 },
      facets: { models: ["m:x", "m:y"], agents: ["terminus"], tasks: ["alpha", "beta", "gamma"] },
    });
  });

  it("filters by outcome and an R range", async () => {
    const expected = jobTrials
      .filter((t) => t.outcome === "completed" && t.reward !== null && t.reward >= 0.3 && t.reward <= 0.7)
      .map((t) => t.trial_id)
      .sort();
    const page = await list("?outcome=completed&r_min=0.3&r_max=0.7");
    expect(page.total).toBe(expected.length);
    expect(page.rows.map((r) => r.trial_id)).toEqual(expected);
    expect(expected.length).toBeGreaterThan(2);
    expect(expected.length).toBeLessThan(30);
  });

  it("filters by model, task and 'no model'", async () => {
    const page = await list("?model=m:y&task=beta");
    const expected = jobTrials.filter((t) => t.model === "m:y" && t.task.name === "beta");
    expect(page.total).toBe(expected.length);
    expect(page.rows.every((r) => r.model === "m:y" && r.task_name === "beta")).toBe(true);
    expect((await list("?model=-")).total).toBe(0);
    const other = (await get(`/api/jobs/${OTHER_JOB}/trials?model=-`)).body as ListBody;
    expect(other.rows.map((r) => r.trial_id)).toEqual(["beta__nop__a0"]);
  });

  it("pages through every trial exactly once", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const page = await list(`?limit=7&offset=${offset}`);
      expect(page.total).toBe(30);
      expect(page.rows.length).toBe(Math.min(7, 30 - offset));
      seen.push(...page.rows.map((r) => r.trial_id));
    }
    expect(seen).toEqual(jobTrials.map((t) => t.trial_id).sort());
    expect((await list("?offset=30")).rows).toEqual([]);
  });

  it("sorts by R in either direction with unscored trials last", async () => {
    for (const order of ["desc", "asc"] as const) {
      const rows = (await list(`?sort=reward&order=${order}&limit=500`)).rows;
      const rewards = rows.map((r) => r.reward);
      const firstNull = rewards.indexOf(null);
      expect(firstNull).toBeGreaterThan(0);
      expect(rewards.slice(firstNull).every((r) => r === null)).toBe(true);
      const scored = rewards.slice(0, firstNull) as number[];
      const sorted = [...scored].sort((a, b) => (order === "desc" ? b - a : a - b));
      expect(scored).toEqual(sorted);
    }
  });

  it("rejects bad query values with 400", async () => {
    for (const q of [
      "?r_min=2",
      "?r_min=0.8&r_max=0.2",
      "?sort=seed",
      "?limit=0",
      "?limit=501",
      "?outcome=won",
    ]) {
      const res = await get(`/api/jobs/${JOB}/trials${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body, q).toHaveProperty("error");
    }
    // Empty form fields mean "no filter".
    expect((await list("?model=&outcome=&r_min=&r_max=")).total).toBe(30);
  });

  it("never serves anything for ids that leave the jobs folder", async () => {
    const probes = [
      `/api/jobs/..%2F..%2Fetc/trials`,
      `/api/jobs/${JOB}/trials/..%2F..%2Flonghaul.db`,
      `/api/jobs/${JOB}/trials/%2E%2E`,
      `/api/jobs/${JOB}/trials/.hidden/recording`,
      `/jobs/${JOB}/trials/..%5C..%5Cx`,
      `/api/jobs/${JOB}%00/trials`,
    ];
    for (const p of probes) {
      const res = await get(p);
      expect([400, 404], p).toContain(res.status);
    }
    expect((await get(`/api/jobs/${JOB}/trials/.hidden`)).status).toBe(400);
  });

  it("answers 404 for unknown jobs and trials, as JSON under /api and HTML otherwise", async () => {
    expect((await get("/api/jobs/nope")).status).toBe(404);
    expect((await get(`/api/jobs/${JOB}/trials/nope`)).body).toHaveProperty("error");
    const page = await get(`/jobs/${JOB}/trials/nope`);
    expect(page.status).toBe(404);
    expect(page.text).toContain("no trial nope");
  });

  it("returns one trial with its instruction, trajectory and recording", async () => {
    const { body } = await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(body).toMatchObject({
      result: { trial_id: RICH_TRIAL, reward: 0.625, subtasks: [{ id: "parse" }, { id: "stress-units" }] },
      trajectory: "ok",
      recording: true,
      verifier: { stdout_tail: expect.stringContaining("7 passed"), stderr_tail: null },
    });
    expect((body as { instruction: string }).instruction).toContain(INSTRUCTION);
    const traj = (await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory`)).body as { steps: unknown[] };
    expect(traj.steps).toHaveLength(3);
    const rec = (await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/recording`)).body as {
      events: [number, string][];
      duration: number;
    };
    // Input events are dropped: the terminal echoes what was typed.
    expect(rec.events.map((e) => e[0])).toEqual([0.1, 0.5, 300]);
    expect(rec.duration).toBe(300);
    const other = jobTrials[1]!.trial_id;
    expect((await get(`/api/jobs/${JOB}/trials/${other}/recording`)).status).toBe(404);
    expect((await get(`/api/jobs/${JOB}/trials/${other}`)).body).toMatchObject({ trajectory: "missing" });
  });

  it("escapes every value taken from result files", async () => {
    const failing = jobTrials.find((t) => t.error !== null)!;
    const page = await get(`/jobs/${JOB}/trials/${failing.trial_id}`);
    expect(page.text).toContain("failed &lt;b&gt;");
    expect(page.text).not.toContain("failed <b>");
    const rich = await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(rich.text).toContain("parsed &lt;all&gt; rows");
    expect(rich.text).toContain("Clean the &lt;data&gt; &amp; report totals.");
    expect(rich.text).toContain("I will look at the files &lt;first&gt;.");
    expect(rich.text).not.toMatch(/<all>|<data>|<first>/);
  });

  it("does not follow log links that point out of the trial folder", async () => {
    const other = jobTrials[1]!.trial_id;
    const outside = join(dirname(fx.jobsDir), "secret.cast");
    writeFileSync(
      outside,
      `${JSON.stringify({ version: 2, width: 80, height: 24 })}\n[0.1, "o", "secret"]\n`,
    );
    const trialDir = join(fx.jobsDir, JOB, other);
    mkdirSync(join(trialDir, "agent"), { recursive: true });
    mkdirSync(join(trialDir, "verifier"), { recursive: true });
    symlinkSync(outside, join(trialDir, "agent", "recording.cast"));
    symlinkSync(outside, join(trialDir, "verifier", "test-stdout.txt"));
    expect((await get(`/api/jobs/${JOB}/trials/${other}/recording`)).status).toBe(404);
    expect((await get(`/api/jobs/${JOB}/trials/${other}/files/verifier/test-stdout.txt`)).status).toBe(404);
    expect((await get(`/api/jobs/${JOB}/trials/${other}`)).body).toMatchObject({
      recording: false,
      verifier: { stdout_tail: null },
    });
    expect((await get(`/jobs/${JOB}/trials/${other}`)).text).not.toContain("secret");
    // The same file inside the trial folder is served.
    const rich = await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/files/verifier/test-stdout.txt`);
    expect(rich.text).toContain("7 passed");
  });

  it("shows a damaged trajectory as such instead of failing the page", async () => {
    const path = join(fx.jobsDir, JOB, RICH_TRIAL, "agent", "trajectory.json");
    writeFileSync(path, '{"steps": [{"step_id": "one"}]}');
    const page = await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("trajectory.json could not be read");
    expect((await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory`)).status).toBe(422);
  });

  it("renders the job page with the filter applied and a pager", async () => {
    const page = await get(`/jobs/${JOB}?outcome=agent_timeout&limit=25`);
    const expected = jobTrials.filter((t) => t.outcome === "agent_timeout").length;
    expect(page.text).toContain(`data-rows="${expected}"`);
    expect(page.text).toContain('<option value="agent_timeout" selected>');
    const first = await get(`/jobs/${JOB}?limit=25`);
    expect(first.text).toMatch(/1–25 of <span id="total">30<\/span>/);
    expect(first.text).toContain(`href="/jobs/${JOB}?limit=25&amp;offset=25"`);
  });

  // Last: it adds a trial to the fixture.
  it("sees trials recorded by a running job after its counts were cached", async () => {
    expect((await list("?outcome=agent_error")).total).toBe(0);
    const before = (await get(`/api/jobs/${JOB}`)).body as { job: { trials: number } };
    const store = await JobStore.open(fx.jobsDir);
    try {
      const t = jobTrials[0]!;
      await store.recordTrial({
        ...t,
        trial_id: "delta__terminus__m_x__a0",
        task: { ...t.task, name: "delta" },
        outcome: "agent_error",
      });
    } finally {
      await store.close();
    }
    expect((await list("?outcome=agent_error")).total).toBe(1);
    const after = (await get(`/api/jobs/${JOB}`)).body as {
      job: { trials: number };
      facets: { tasks: string[] };
    };
    expect(after.job.trials).toBe(before.job.trials + 1);
    expect(after.facets.tasks).toEqual(["alpha", "beta", "delta", "gamma"]);
  });
});
