import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createViewerApp, type ViewerApp } from "../../src/server/index.js";
import { MAX_CAST_EVENTS } from "../../src/server/recording-file.js";
import { buildFixture, type Fixture, JOB, RICH_TRIAL } from "./fixtures.js";

/** The verifier logs on a trial page: their end is what is shown, however long they are. */
describe("trial page verifier logs", () => {
  let fx: Fixture;
  let viewer: ViewerApp;

  beforeAll(async () => {
    fx = await buildFixture();
    viewer = await createViewerApp({ jobsDir: fx.jobsDir });
  });

  afterAll(async () => {
    await viewer?.close();
    rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  const page = async (): Promise<string> =>
    (await viewer.app.request(`/jobs/${JOB}/trials/${RICH_TRIAL}`)).text();
  const log = (name: string): string => join(fx.jobsDir, JOB, RICH_TRIAL, "verifier", name);

  it("shows the last lines of a long log, says what is left out and links the whole file", async () => {
    // 200 KB: longer than the tail read (64 KB) and than one text block on a page (20,000 characters).
    const lines = Array.from({ length: 4000 }, (_, i) => `test_case_${i} ... ok padding padding`);
    writeFileSync(log("test-stdout.txt"), `${lines.join("\n")}\nFINAL: 2 failed, 3998 passed\n`);
    const html = await page();
    expect(html).toContain("FINAL: 2 failed, 3998 passed");
    expect(html).toContain("test_case_3999 ... ok");
    expect(html).not.toContain("test_case_10 ... ok");
    expect(html).toMatch(/earlier characters not shown/);
    expect(html).toContain(`href="/api/jobs/${JOB}/trials/${RICH_TRIAL}/files/verifier/test-stdout.txt"`);
  });

  it("shows a short log whole, without a note, and undecodable bytes as U+FFFD", async () => {
    writeFileSync(
      log("test-stderr.txt"),
      Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0x1b, 0x5b, 0x33, 0x31, 0x6d, 0x0a]),
    );
    writeFileSync(log("test-stdout.txt"), "collected 9 items\n7 passed, 2 failed\n");
    const html = await page();
    expect(html).toContain("7 passed, 2 failed");
    expect(html).not.toContain("only the end is shown");
    expect(html).toContain("ok\uFFFD\uFFFD\uFFFD[31m");
  });

  it("serves a recording with too many events as its last ones, saying how many lines were left out", async () => {
    const lines = [JSON.stringify({ version: 2, width: 80, height: 24 })];
    for (let i = 0; i < MAX_CAST_EVENTS + 5; i++) lines.push(`[${i / 1000}, "o", "${i}\\r\\n"]`);
    lines.push('[999, "o", "the final screen"]');
    writeFileSync(join(fx.jobsDir, JOB, RICH_TRIAL, "agent", "recording.cast"), `${lines.join("\n")}\n`);
    const res = await viewer.app.request(`/api/jobs/${JOB}/trials/${RICH_TRIAL}/recording`);
    expect(res.status).toBe(200);
    const rec = (await res.json()) as { events: [number, string][]; omitted_lines: number; duration: number };
    expect(rec.events).toHaveLength(MAX_CAST_EVENTS);
    expect(rec.omitted_lines).toBe(6);
    expect(rec.events.at(-1)).toEqual([999, "the final screen"]);
    expect(rec.events[0]).toEqual([6 / 1000, "6\r\n"]);
    expect(rec.duration).toBe(999);
  });
});
