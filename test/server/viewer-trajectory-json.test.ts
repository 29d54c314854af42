import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createViewerApp, startViewer, type ViewerApp } from "../../src/server/index.js";
import { FULL_PARSE_BYTES } from "../../src/server/trajectory-file.js";
import { loadTrajectory } from "../../src/server/trial-files.js";
import { buildFixture, type Fixture, JOB, RICH_TRIAL } from "./fixtures.js";

/** Marks the trajectory's own top-level text, to tell its parses from the index's. */
const SESSION = "json-route-session";
/** Most a request may hold at once, in the texts it parses and writes, for a file over 8 MB. */
const MAX_PIECE = 1024 * 1024;

/** A trajectory just over the size parsed whole, with what JSON escapes and what the viewer drops. */
function bigTrajectory(middle: string): string {
  const steps: string[] = [];
  let bytes = 0;
  for (let i = 1; bytes < FULL_PARSE_BYTES + 512 * 1024; i++) {
    const s =
      i === 5000
        ? middle
        : JSON.stringify({
            source: i % 3 === 0 ? "user" : "agent",
            step_id: i,
            message: `step ${i}: é 中 😀 "quoted" \\ back\nnew line \u0000 \u2028 \ud800 </script>`,
            reasoning_content: "dropped by the viewer",
            tool_calls: [
              { function_name: "run", tool_call_id: `c${i}`, arguments: { cmd: `ls ${i}`, n: [1.5, null] } },
            ],
            observation: {
              results: [{ source_call_id: `c${i}`, content: `out ${i}\t${"x".repeat(i % 50)}` }],
            },
            metrics: { prompt_tokens: i, cost_usd: i / 1000 },
          });
    steps.push(s);
    bytes += s.length + 1;
  }
  return `{"schema_version":"ATIF-v1.4","session_id":"${SESSION}","agent":{"name":"big","version":"1"},"steps":[\n${steps.join(",\n")}\n],"final_metrics":{"total_steps":${steps.length}}}`;
}

const GOOD_MIDDLE = '{"step_id":5000,"source":"agent","message":"the middle \\u00e9"}';

describe("the whole-trajectory JSON route for a file over 8 MB", () => {
  let fx: Fixture;
  let viewer: ViewerApp;
  const route = `/api/jobs/${JOB}/trials/${RICH_TRIAL}/trajectory`;
  const file = () => join(fx.jobsDir, JOB, RICH_TRIAL, "agent", "trajectory.json");
  const trialDir = () => join(fx.jobsDir, JOB, RICH_TRIAL);
  /** What the route answered when it parsed the whole file. */
  const reference = (): string => {
    const t = loadTrajectory(trialDir());
    if (t.state !== "ok") throw new Error(`reference: ${JSON.stringify(t)}`);
    return JSON.stringify(t.value);
  };

  beforeAll(async () => {
    fx = await buildFixture();
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
  });
  beforeEach(() => writeFileSync(file(), bigTrajectory(GOOD_MIDDLE)));
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  /** The body's pieces as they arrive. */
  async function pieces(res: Response): Promise<Buffer[]> {
    const out: Buffer[] = [];
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) out.push(Buffer.from(r.value));
    return out;
  }

  it("answers byte for byte what parsing the whole file answered, never holding the file", async () => {
    const want = Buffer.from(reference());
    expect(want.length).toBeGreaterThan(FULL_PARSE_BYTES / 2);
    const parse = vi.spyOn(JSON, "parse");
    const stringify = vi.spyOn(JSON, "stringify");
    const res = await viewer.app.request(route);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    const got = await pieces(res);
    expect(Buffer.concat(got).equals(want)).toBe(true);
    expect(got.length).toBeGreaterThan(8);
    expect(Math.max(...got.map((b) => b.length))).toBeLessThan(MAX_PIECE);
    const longest = (xs: unknown[]) => Math.max(...xs.map((x) => (typeof x === "string" ? x.length : 0)));
    expect(longest(parse.mock.calls.map((c) => c[0]))).toBeLessThan(MAX_PIECE);
    expect(longest(stringify.mock.results.map((r) => r.value))).toBeLessThan(MAX_PIECE);
  });

  it("answers the same over HTTP", async () => {
    const want = Buffer.from(reference());
    const served = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
    try {
      const res = await fetch(`${served.url}${route.slice(1)}`);
      expect(res.status).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(want)).toBe(true);
    } finally {
      await served.close();
    }
  });

  it("lets other work run between its batches, however fast they are read", async () => {
    const res = await viewer.app.request(route);
    expect(res.status).toBe(200);
    let received = 0;
    let receivedWhenTimerRan = -1;
    setTimeout(() => {
      receivedWhenTimerRan = received;
    }, 0);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) received += r.value.length;
    // Read without any wait of its own, the body still gave the timer its turn part way through.
    expect(receivedWhenTimerRan).toBeGreaterThanOrEqual(0);
    expect(receivedWhenTimerRan).toBeLessThan(received / 2);
  });

  it("answers 422 for a damaged step in the middle, before sending anything", async () => {
    for (const [middle, reason] of [
      // The structure is sound; only parsing the step finds these.
      ['{"step_id":5000.,"source":"agent"}', /^trajectory\.json: not JSON: /],
      ['{"step_id":5000 "source":"agent"}', /^trajectory\.json: not JSON: /],
      ['{"step_id":5000,"message":"no source"}', /^trajectory\.json: steps\.4999\.source: /],
    ] as const) {
      writeFileSync(file(), bigTrajectory(middle));
      const whole = loadTrajectory(trialDir());
      expect(whole.state).toBe("invalid");
      const res = await viewer.app.request(route);
      expect(res.status, middle).toBe(422);
      const { error } = (await res.json()) as { error: string };
      expect(error).toMatch(reason);
      // A reason about a step's fields is the one parsing whole gave.
      if (whole.state === "invalid" && !whole.reason.startsWith("not JSON"))
        expect(error).toBe(`trajectory.json: ${whole.reason}`);
    }
  });

  it("checks the file once for concurrent requests, each answered in full", async () => {
    const want = Buffer.from(reference());
    const parse = vi.spyOn(JSON, "parse");
    const bodies = await Promise.all(
      [1, 2, 3, 4].map(async () => Buffer.concat(await pieces(await viewer.app.request(route)))),
    );
    for (const b of bodies) expect(b.equals(want)).toBe(true);
    const checks = () => parse.mock.calls.filter((c) => String(c[0]).includes(SESSION)).length;
    expect(checks()).toBe(1);
    // Asked for again unchanged, it is not checked again; changed, it is.
    await pieces(await viewer.app.request(route));
    expect(checks()).toBe(1);
    appendFileSync(file(), "\n");
    const again = await pieces(await viewer.app.request(route));
    expect(Buffer.concat(again).equals(want)).toBe(true);
    expect(checks()).toBe(2);
  });

  it("fails the download, rather than ending it early, when the file changes while it is sent", async () => {
    const res = await viewer.app.request(route);
    expect(res.status).toBe(200);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value ?? []).toString()).toMatch(/^\{"schema_version"/);
    appendFileSync(file(), " ");
    const rest = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read());
    })();
    await expect(rest).rejects.toThrow(/changed while it was being sent/);
  });
});
