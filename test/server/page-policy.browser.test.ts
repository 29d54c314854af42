import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarize } from "../../src/analysis/summarize.js";
import { syntheticTrials } from "../../src/analysis/synthetic-trials.js";
import { renderHtml } from "../../src/report/render-html.js";
import { page as viewerPage } from "../../src/server/html.js";
import { launchChromium } from "../support/chromium.js";

// Text an escaping slip would let through: it must not run, while the page's own script does.
const SLIP = `<script>window.slipped = 1</script><img src="x" onerror="window.slipped = 2">`;

describe("the pages' script policy, in Chromium", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  /** Serves one HTML document at a real address and reports what ran. */
  async function load(html: string): Promise<{ own: unknown; slipped: unknown; errors: string[] }> {
    const context = await browser.newContext();
    await context.route("**/*", (route) =>
      route.request().url() === "http://pages.test/"
        ? route.fulfill({ status: 200, contentType: "text/html", body: html })
        : route.abort(),
    );
    const p = await context.newPage();
    const errors: string[] = [];
    p.on("pageerror", (err) => errors.push(err.message));
    await p.goto("http://pages.test/");
    const seen = await p.evaluate(() => {
      const w = globalThis as unknown as { own?: unknown; slipped?: unknown };
      return { own: w.own, slipped: w.slipped };
    });
    await context.close();
    return { ...seen, errors };
  }

  it("a viewer page runs its own script and nothing that slipped into its body", async () => {
    const seen = await load(viewerPage("t", `<p>${SLIP}</p>`, "window.own = 1;"));
    expect(seen.own).toBe(1);
    expect(seen.slipped).toBeUndefined();
    expect(seen.errors).toEqual([]);
  });

  it("a page without a script runs none", async () => {
    const seen = await load(viewerPage("t", SLIP));
    expect(seen.slipped).toBeUndefined();
  });

  it("the HTML report draws its charts but runs nothing that slipped into it", async () => {
    const html = renderHtml(summarize(syntheticTrials({ trials: 60, seed: 3 }))).replace(
      "<body>",
      `<body>${SLIP}`,
    );
    const context = await browser.newContext();
    await context.route("**/*", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: html }),
    );
    const p = await context.newPage();
    const errors: string[] = [];
    p.on("pageerror", (err) => errors.push(err.message));
    await p.goto("http://report.test/");
    await p.waitForSelector("body[data-charts-ready=true]", { timeout: 20_000 });
    expect(await p.evaluate(() => (globalThis as unknown as { slipped?: unknown }).slipped)).toBeUndefined();
    expect(errors).toEqual([]);
    await context.close();
  });
});
