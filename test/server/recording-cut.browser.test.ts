import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningViewer, startViewer } from "../../src/server/index.js";
import { MAX_CAST_EVENTS } from "../../src/server/recording-file.js";
import { launchChromium } from "../support/chromium.js";
import { buildFixture, type Fixture, JOB, RICH_TRIAL } from "./fixtures.js";

/** A recording with more output events than are served: the player says so and ends on the last screen. */
describe("terminal player of a cut recording, in Chromium", () => {
  let fx: Fixture;
  let server: RunningViewer;
  let browser: Browser;

  beforeAll(async () => {
    fx = await buildFixture();
    const lines = [JSON.stringify({ version: 2, width: 40, height: 5 })];
    for (let i = 0; i < MAX_CAST_EVENTS + 9; i++) lines.push(`[${i / 1e6}, "o", "."]`);
    lines.push('[1, "o", "\\r\\nthe final screen"]');
    writeFileSync(join(fx.jobsDir, JOB, RICH_TRIAL, "agent", "recording.cast"), `${lines.join("\n")}\n`);
    server = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (fx) rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
  });

  it("notes the lines left out and skips to the recording's real end", async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(`${server.url}jobs/${JOB}/trials/${RICH_TRIAL}`);
    const player = page.locator("#player");
    await expect.poll(() => player.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
    expect(await player.locator("p.omitted").textContent()).toBe(
      `Only the last ${MAX_CAST_EVENTS} output events are played; the first 10 lines of the recording are left out.`,
    );
    await player.locator("button.end").click();
    await expect.poll(() => player.getAttribute("data-state")).toBe("ended");
    expect(await player.locator("pre.screen").textContent()).toContain("the final screen");
    expect(errors).toEqual([]);
    await page.close();
  });
});
