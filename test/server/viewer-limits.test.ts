import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type RunningViewer, startViewer, type ViewerApp } from "../../src/server/index.js";
import { TRAJECTORY_EDGE_STEPS } from "../../src/server/trajectory-section.js";
import { buildFixture, type Fixture, JOB, RICH_TRIAL } from "./fixtures.js";

/** Damaged or hostile trial files, index rows and requests: each is reported, none takes the viewer down. */
describe("viewer limits", () => {
  let fx: Fixture;
  let viewer: ViewerApp;
  let server: RunningViewer;

  beforeAll(async () => {
    fx = await buildFixture();
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
    server = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
  });

  afterAll(async () => {
    await server?.close();
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const res = await viewer.app.request(path, { headers });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text };
  }

  /** A raw HTTP request to the listening viewer, with a Host header of our choosing. */
  function http(method: string, path: string, host: string) {
    return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((done, fail) => {
      const req = httpRequest(
        { host: "127.0.0.1", port: server.port, method, path, headers: { host } },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            done({
              status: res.statusCode ?? 0,
              headers: res.headers,
              text: Buffer.concat(chunks).toString("utf8"),
            }),
          );
        },
      );
      req.on("error", fail);
      req.end();
    });
  }

  const richDir = (): string => join(fx.jobsDir, JOB, RICH_TRIAL);
  const trajectoryFile = (): string => join(richDir(), "agent", "trajectory.json");

  it("shows the ends of a long trajectory and links the JSON route, which serves it whole", async () => {
    const n = 2 * TRAJECTORY_EDGE_STEPS + 5;
    const steps = Array.from({ length: n }, (_, i) => ({
      step_id: i + 1,
      source: "agent",
      message: `s${i + 1}`,
    }));
    writeFileSync(trajectoryFile(), JSON.stringify({ steps }));
    const page = await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`5 of ${n} steps not shown`);
    expect(page.text).toContain(`href="/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory"`);
    expect(page.text).not.toContain(`#${TRAJECTORY_EDGE_STEPS + 1} agent`);
    expect(page.text).toContain(`#${n} agent`);
    const api = await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory`);
    expect(api.status).toBe(200);
    expect((JSON.parse(api.text) as { steps: unknown[] }).steps).toHaveLength(n);
  });

  it("reports a trajectory nested 20,000 levels deep instead of failing with a stack overflow", async () => {
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    writeFileSync(
      trajectoryFile(),
      `{"steps":[{"step_id":1,"source":"agent","tool_calls":[{"function_name":"f","arguments":${deep}}]}]}`,
    );
    const page = await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("trajectory.json could not be read: nested deeper than 1000 levels");
    const api = await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory`);
    expect(api.status).toBe(422);
    expect(JSON.parse(api.text)).toEqual({ error: "trajectory.json: nested deeper than 1000 levels" });
  });

  it("shows an instruction.md that is a FIFO or a folder as unreadable, without hanging", async () => {
    const path = join(fx.taskDir, "instruction.md");
    rmSync(path);
    execFileSync("mkfifo", [path]);
    const page = await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/instruction\.md in .* could not be read: not a regular file \(a FIFO\)/);
    rmSync(path);
    mkdirSync(path);
    const api = await get(`/api/jobs/${JOB}/trials/${RICH_TRIAL}`);
    expect(api.status).toBe(200);
    expect(JSON.parse(api.text)).toMatchObject({ instruction: null });
    expect((await get(`/jobs/${JOB}/trials/${RICH_TRIAL}`)).text).toContain("(a folder)");
  });

  it("keeps a job's trial list up when one index row is damaged, and refuses that trial with 422", async () => {
    const damaged = fx.trials.filter((t) => t.job_id === JOB && t.outcome === "grading_error");
    expect(damaged.length).toBeGreaterThanOrEqual(2);
    const [notJson, offSchema] = damaged.map((t) => t.trial_id);
    const db = new BetterSqlite3(join(fx.jobsDir, "longhaul.db"));
    try {
      const set = db.prepare("UPDATE trials SET result_json = ? WHERE job_id = ? AND trial_id = ?");
      set.run('{"secret": "s3cr3t", broken', JOB, notJson);
      set.run(JSON.stringify({ ...damaged[1], outcome: "s3cr3t" }), JOB, offSchema);
    } finally {
      db.close();
    }
    const list = await get(`/api/jobs/${JOB}/trials?outcome=grading_error`);
    expect(list.status).toBe(200);
    const rows = (JSON.parse(list.text) as { rows: { trial_id: string; grading_reason: string }[] }).rows;
    const reason = (id: string | undefined) => rows.find((r) => r.trial_id === id)?.grading_reason;
    expect(reason(notJson)).toBe("result unreadable: not valid JSON");
    expect(reason(offSchema)).toBe("result unreadable: field outcome does not match the trial result schema");
    const page = await get(`/jobs/${JOB}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("result unreadable: not valid JSON");
    expect(page.text).not.toContain("s3cr3t");
    for (const path of [`/jobs/${JOB}/trials/${notJson}`, `/api/jobs/${JOB}/trials/${offSchema}`]) {
      const res = await get(path);
      expect(res.status, path).toBe(422);
      expect(res.text, path).toMatch(/trial [^ ]+ of job job-view: result unreadable/);
      expect(res.text, path).not.toContain("s3cr3t");
    }
  });

  it("streams a verifier log as plain text and answers HEAD for it", async () => {
    const log = `${"line of output\n".repeat(10_000)}the end\n`;
    writeFileSync(join(richDir(), "verifier", "test-stdout.txt"), log);
    const path = `/api/jobs/${JOB}/trials/${RICH_TRIAL}/files/verifier/test-stdout.txt`;
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.text).toBe(log);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const host = `127.0.0.1:${server.port}`;
    const head = await http("HEAD", path, host);
    expect(head.status).toBe(200);
    expect(head.headers["content-length"]).toBe(String(Buffer.byteLength(log)));
    const whole = await http("GET", path, host);
    expect(whole.status).toBe(200);
    expect(whole.text).toBe(log);
  });

  it("answers only requests addressed to a loopback name, on any port (a tunnel's)", async () => {
    const port = server.port;
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      "localhost:9000",
      "localhost",
    ]) {
      expect((await http("GET", "/api/jobs", host)).status, host).toBe(200);
    }
    for (const host of [`evil.example:${port}`, `127.0.0.1.evil.example:${port}`, "localhost.evil.example"]) {
      const res = await http("GET", "/api/jobs", host);
      expect(res.status, host).toBe(403);
      expect(JSON.parse(res.text), host).toHaveProperty("error");
    }
    expect((await get("/api/jobs", { host: "evil.example" })).status).toBe(403);
    expect((await get("/api/jobs")).status).toBe(200);
  });

  it("sends nosniff with pages, JSON and errors", async () => {
    for (const path of ["/", "/api/jobs", "/api/jobs/nope", `/jobs/${JOB}/trials/nope`]) {
      expect((await get(path)).headers.get("x-content-type-options"), path).toBe("nosniff");
    }
    expect((await get("/", { host: "evil.example" })).headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("lets JSON and logs run nothing, and keeps pages out of frames", async () => {
    for (const path of ["/api/jobs", "/api/jobs/nope"]) {
      const policy = (await get(path)).headers.get("content-security-policy") ?? "";
      expect(policy, path).toContain("default-src 'none'");
      expect(policy, path).toContain("sandbox");
    }
    // The refusal of another host repeats the Host it was sent, so it runs nothing either.
    const refused = await get("/api/jobs", { host: "<img src=x onerror=alert(1)>.example" });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-security-policy")).toBe(
      "default-src 'none'; frame-ancestors 'none'; sandbox",
    );
    for (const path of ["/", `/jobs/${JOB}/trials/nope`]) {
      const res = await get(path);
      expect(res.headers.get("content-security-policy"), path).toContain("frame-ancestors 'none'");
      // The page's script policy travels in the page, by the hash of its script.
      expect(res.text, path).toMatch(
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src /,
      );
    }
  });
});
