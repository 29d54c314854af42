import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrialResult } from "../../src/core/index.js";
import { type RunningViewer, startViewer } from "../../src/server/index.js";
import { launchChromium } from "../support/chromium.js";
import { buildWorldJob, INJECTED_CHAT, WORLD_JOB, WORLD_TRIAL } from "../support/world-run.js";
import { buildFixture, type Fixture, JOB, RECORDING_TEXT, RICH_TRIAL } from "./fixtures.js";

describe("results viewer in Chromium", () => {
  let fx: Fixture;
  let server: RunningViewer;
  let browser: Browser;
  // A second jobs folder with one world trial (bronze-arrows), served by its own viewer.
  const worldRoot = mkdtempSync(join(tmpdir(), "longhaul-view-world-"));
  let worldServer: RunningViewer;

  beforeAll(async () => {
    fx = await buildFixture();
    server = await startViewer({ jobsDir: fx.jobsDir, port: 0 });
    await buildWorldJob(join(worldRoot, "jobs"));
    worldServer = await startViewer({ jobsDir: join(worldRoot, "jobs"), port: 0 });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await worldServer?.close();
    if (fx) rmSync(dirname(fx.jobsDir), { recursive: true, force: true });
    rmSync(worldRoot, { recursive: true, force: true });
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
  it("replays a world trial round by round, marking contributing calls and showing chat as text", async () => {
    const context = await browser.newContext();
    const external: string[] = [];
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(worldServer.url) || url.startsWith("data:")) return route.continue();
      external.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(`${worldServer.url}jobs/${WORLD_JOB}/trials/${WORLD_TRIAL}`);
    const root = page.locator("#world-replay");
    await expect.poll(() => root.getAttribute("data-state"), { timeout: 15_000 }).toBe("ready");
    const label = root.locator(".label");
    const lumberjack = root.locator('ul.agents li[data-agent="lumberjack"]');
    expect(await label.textContent()).toBe("start (round 0 of 14)");
    expect(await lumberjack.textContent()).toBe("lumberjack (lumberjack) at (525, 381)");

    // The map is drawn: a 60 × 60 tile crop at 12 px a tile, opaque and of many colours.
    // (Expressions as text: the test is type-checked without the DOM library.)
    const map = (await page.evaluate(`(() => {
      const c = document.querySelector("#world-replay canvas.map");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      const colours = new Set();
      let opaque = 0;
      for (let i = 0; i < d.length; i += 4 * 7) {
        if (d[i + 3] === 255) opaque++;
        colours.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      }
      return { w: c.width, h: c.height, opaque, samples: d.length / 28, colours: colours.size };
    })()`)) as { w: number; h: number; opaque: number; samples: number; colours: number };
    expect([map.w, map.h]).toEqual([720, 720]);
    expect(map.opaque).toBeGreaterThan(map.samples * 0.99);
    expect(map.colours).toBeGreaterThan(5);

    // → steps to round 1: the lumberjack has moved, and is drawn in its colour where it stands.
    await page.keyboard.press("ArrowRight");
    expect(await label.textContent()).toBe("round 1 of 14");
    expect(await lumberjack.textContent()).toBe("lumberjack (lumberjack) at (500, 386)");
    const pixel = (x: number, y: number) =>
      page.evaluate(
        `Array.from(document.querySelector("#world-replay canvas.map").getContext("2d").getImageData(${x}, ${y}, 1, 1).data).slice(0, 3)`,
      );
    // Tile (500, 386) in the crop from (475, 374), 12 px a tile: its centre.
    expect(await pixel((500 - 475 + 0.5) * 12, (386 - 374 + 0.5) * 12)).toEqual([255, 40, 40]);
    // Its move is in the closure: marked in the list, and the agent is emphasised.
    const move = root.locator('table.calls tr[data-call="0"]');
    expect(await move.getAttribute("class")).toContain("wr-closure");
    expect(await move.locator("td.mark").textContent()).toBe("closure");
    expect(await lumberjack.getAttribute("class")).toBe("wr-contrib");
    expect(await root.locator('table.calls tr[data-call="2"]').getAttribute("data-mark")).toBe("");

    // The chat line is shown as text; its markup never becomes an element.
    const chat = root.locator("ul.chat li");
    expect(await chat.count()).toBe(1);
    expect(await chat.first().textContent()).toBe(`round 1 · fletcher: ${INJECTED_CHAT}`);
    expect(await page.locator("#world-replay img").count()).toBe(0);
    expect(await page.evaluate("document.body.dataset.pwned ?? null")).toBeNull();

    await root.locator("button.fwd").click();
    expect(await label.textContent()).toBe("round 2 of 14");
    expect(await lumberjack.textContent()).toBe("lumberjack (lumberjack) at (500, 401)");
    await root.locator("button.back").click();
    expect(await label.textContent()).toBe("round 1 of 14");
    await page.keyboard.press("ArrowLeft");
    expect(await label.textContent()).toBe("start (round 0 of 14)");

    // The slider jumps to round 13, the success witness (the fletcher's arrows) in gold; round 14,
    // the last, holds only the completions.
    await root.locator("input.slider").fill("13");
    expect(await label.textContent()).toBe("round 13 of 14");
    const witness = root.locator('table.calls tr[data-mark="witness"]');
    expect(await witness.count()).toBe(1);
    expect(await witness.textContent()).toContain("craft_item");
    expect(await root.locator('ul.agents li[data-agent="fletcher"]').getAttribute("class")).toBe(
      "wr-contrib",
    );

    await root.locator("input.slider").fill("14");
    expect(await label.textContent()).toBe("round 14 of 14");

    // Play, at the last round, runs from the start again and moves on by itself.
    await root.locator("button.play").click();
    await expect.poll(() => label.textContent(), { timeout: 5_000 }).toBe("round 1 of 14");
    await root.locator("button.play").click();
    expect(await root.getAttribute("data-state")).toBe("paused");

    expect(errors).toEqual([]);
    expect(external).toEqual([]);
    await context.close();
  });
});
