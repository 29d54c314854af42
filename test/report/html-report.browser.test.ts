import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/summarize.js";
import { syntheticTrials } from "../../src/analysis/synthetic-trials.js";
import { CHART_IDS, renderHtml } from "../../src/report/render-html.js";
import { launchChromium } from "../support/chromium.js";

describe("HTML report in Chromium", () => {
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "longhaul-html-"));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function open(html: string, name: string) {
    const file = join(dir, name);
    writeFileSync(file, html);
    const context = await browser.newContext({ offline: true });
    const requests: string[] = [];
    // Anything but the report file itself is a network dependency the report must not have.
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith("file:")) return route.continue();
      requests.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") errors.push(msg.text());
    });
    page.on("pageerror", (err) => errors.push(err.message));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector("body[data-charts-ready=true]", { timeout: 20_000 });
    return { page, context, errors, requests };
  }

  it("draws every chart with marks, offline, without console errors", async () => {
    const summary = summarize(syntheticTrials({ trials: 480, seed: 11, models: 4, tasks: 8 }), { seed: 5 });
    const { page, context, errors, requests } = await open(
      renderHtml(summary, { title: "synthetic" }),
      "r.html",
    );
    for (const id of CHART_IDS) {
      const el = page.locator(`#${id}`);
      expect(await el.count(), id).toBe(1);
      expect(await el.locator("svg").count(), id).toBeGreaterThan(0);
      expect(await el.locator("svg :is(rect, circle, path, text)").count(), id).toBeGreaterThan(3);
      expect(await el.textContent(), id).not.toContain("chart failed");
    }
    // Data marks specifically: one dot per group, and heat cells for each group × category.
    expect(await page.locator("#chart-pass-vs-reward svg circle").count()).toBe(4);
    expect(await page.locator("#chart-category-heatmap svg g[aria-label=cell] rect").count()).toBe(
      summary.byCategory.length,
    );
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await context.close();
  });

  it("renders a published summary with placeholders instead of empty containers", async () => {
    const { summaryFromPublished } = await import("../../src/analysis/published.js");
    const summary = summaryFromPublished([
      { model: "m1", agent: "h", n: 46, pass_095: 0.283, pass_100: 0.196, mean_reward: 0.51, cost_usd: 11 },
      { model: "m2", agent: "h", n: 46, pass_095: 0.152, pass_100: 0.087, mean_reward: 0.45, cost_usd: 21 },
    ]);
    const { page, context, errors } = await open(renderHtml(summary), "p.html");
    for (const id of CHART_IDS) {
      expect(await page.locator(`#${id} svg`).count(), id).toBeGreaterThan(0);
    }
    expect(await page.locator("#chart-cost-frontier svg circle").count()).toBe(2);
    expect(await page.locator("#chart-outcomes").textContent()).toContain("no outcome counts");
    expect(errors).toEqual([]);
    await context.close();
  });
});
