import { rmSync } from "node:fs";
import { dirname } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { type RunningViewer, startViewer } from "../../src/server/index.js";
import { launchChromium } from "../support/chromium.js";
import { buildFixture, type Fixture, JOB, RECORDING_TEXT, RICH_TRIAL } from "./fixtures.js";

describe("results viewer in Chromium", () => {
  let fx: Fixture;
  let server: RunningViewer;
  let browser: Browser;

  beforeAll(async () => {
    fx = await buildFixture();
    server = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (fx) rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  it("walks from the job list to a filtered job, a trial, its trajectory and its recording", async () => {
    const context = await browser.newContext();
    const external: string[] = [];
    // The viewer must work offline: anything not served by the viewer itself is refused and noted.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(server.url)) return route.continue();
      external.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));

    await page.goto(server.url);
    await expect.poll(() => page.locator("#jobs tbody tr").count()).toBe(2);
    await page.click(`#jobs a:text-is("${JOB}")`);
    await page.waitForURL(`**/jobs/${JOB}`);
    const rows = page.locator("#trials tbody tr");
    expect(await rows.count()).toBe(30);

    const trials = fx.trials.filter((t) => t.job_id === JOB);
    const count = (keep: (t: TrialResult) => boolean) => trials.filter(keep).length;

    // A drop-down applies at once.
    await Promise.all([
      page.waitForURL(/outcome=completed/),
      page.selectOption("select[name=outcome]", "completed"),
    ]);
    const completed = count((t) => t.outcome === "completed");
    expect(await rows.count()).toBe(completed);
    expect(completed).toBeLessThan(30);

    await page.fill("input[name=r_min]", "0.3");
    await page.fill("input[name=r_max]", "0.7");
    await Promise.all([page.waitForURL(/r_max=0.7/), page.click("form.filters button[type=submit]")]);
    const inRange = count(
      (t) => t.outcome === "completed" && t.reward !== null && t.reward >= 0.3 && t.reward <= 0.7,
    );
    expect(await rows.count()).toBe(inRange);
    expect(inRange).toBeLessThan(completed);
    expect(await page.textContent("#total")).toBe(String(inRange));
    const shown = await page.locator("#trials tbody .reward").allTextContents();
    expect(shown.map(Number).every((r) => r >= 0.3 && r <= 0.7)).toBe(true);

    await page.click(`#trials a:text-is("${RICH_TRIAL}")`);
    await page.waitForURL(`**/trials/${RICH_TRIAL}`);
    expect(await page.locator("#subtasks tbody tr").count()).toBe(2);
    expect(await page.textContent("#subtasks")).toContain("stress-units");
    expect(await page.locator("#trajectory .step").count()).toBe(3);
    expect(await page.textContent("#trajectory")).toContain("run_shell");

    const player = page.locator("#player");
    await expect.poll(() => player.getAttribute("data-state")).toBe("ready");
    const screen = page.locator("#player pre.screen");
    expect(await screen.textContent()).not.toContain(RECORDING_TEXT);
    const started = Date.now();
    await page.click("#player button.play");
    // The last event comes 300 s after the one before; the player caps that gap at 1 s.
    await expect.poll(() => screen.textContent(), { timeout: 15_000 }).toContain(RECORDING_TEXT);
    expect(Date.now() - started).toBeLessThan(10_000);
    const text = (await screen.textContent()) ?? "";
    expect(text).toContain("running");
    expect(text).not.toContain("[32m");
    await expect.poll(() => player.getAttribute("data-state")).toBe("ended");

    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });
});
