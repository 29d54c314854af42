import { describe, expect, it } from "vitest";
import { edgesOfWhole } from "./trajectory-file.js";
import {
  STEP_ITEMS,
  TRAJECTORY_EDGE_STEPS,
  TRAJECTORY_HTML_BUDGET,
  TRAJECTORY_WINDOW_STEPS,
  trajectorySection,
} from "./trajectory-section.js";
import type { ViewTrajectory } from "./trial-files.js";

const HREF = "/api/jobs/j1/trials/t1/trajectory";

function windowOf(steps: ViewTrajectory["steps"], from: number): string {
  return trajectorySection(
    { state: "ok", value: edgesOfWhole({ steps }, TRAJECTORY_WINDOW_STEPS, 0, from) },
    HREF,
  );
}

function trajectory(steps: ViewTrajectory["steps"]): string {
  return trajectorySection({ state: "ok", value: edgesOfWhole({ steps }, TRAJECTORY_EDGE_STEPS, 0) }, HREF);
}

function step(id: number, message: string, extra: Partial<ViewTrajectory["steps"][number]> = {}) {
  return { step_id: id, source: "agent", message, ...extra };
}

/** Step numbers shown on the page, in page order. */
function shownSteps(html: string): number[] {
  return [...html.matchAll(/<div class="meta">#(\d+) /g)].map((m) => Number(m[1]));
}

describe("trajectory section", () => {
  it("shows every step of a short trajectory and no cut note", () => {
    const html = trajectory(Array.from({ length: 5 }, (_, i) => step(i + 1, `m${i}`)));
    expect(shownSteps(html)).toEqual([1, 2, 3, 4, 5]);
    expect(html).not.toContain("trajectory-cut");
  });

  it("shows the first and last steps of a long one, saying how many were left out and where all are", () => {
    const n = 2 * TRAJECTORY_EDGE_STEPS + 37;
    const html = trajectory(Array.from({ length: n }, (_, i) => step(i + 1, "ok")));
    const shown = shownSteps(html);
    expect(shown).toHaveLength(2 * TRAJECTORY_EDGE_STEPS);
    expect(shown.slice(0, 2)).toEqual([1, 2]);
    expect(shown.at(TRAJECTORY_EDGE_STEPS - 1)).toBe(TRAJECTORY_EDGE_STEPS);
    expect(shown.at(TRAJECTORY_EDGE_STEPS)).toBe(TRAJECTORY_EDGE_STEPS + 38);
    expect(shown.at(-1)).toBe(n);
    expect(html).toMatch(/id="trajectory-cut">37 of 237 steps not shown/);
    expect(html).toContain(`<a href="${HREF}">`);
  });

  it("stops adding steps once the HTML passes its byte budget", () => {
    // Escaping makes each 20,000-character text five times longer: about 100 KB of HTML a step.
    const big = "&".repeat(20_000);
    const html = trajectory(Array.from({ length: 150 }, (_, i) => step(i + 1, big)));
    expect(Buffer.byteLength(html)).toBeLessThan(TRAJECTORY_HTML_BUDGET + 300_000);
    const shown = shownSteps(html);
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.length).toBeLessThan(30);
    expect(shown[0]).toBe(1);
    expect(shown.at(-1)).toBe(150);
    expect(html).toContain(`${150 - shown.length} of 150 steps not shown`);
  });

  it("cuts a step's tool calls and observations, counting the rest", () => {
    const calls = Array.from({ length: STEP_ITEMS + 7 }, (_, i) => ({
      function_name: "run_shell",
      arguments: { command: `echo ${i}` },
    }));
    const results = Array.from({ length: STEP_ITEMS + 3 }, (_, i) => ({ content: `out ${i}` }));
    const html = trajectory([step(1, "many", { tool_calls: calls, observation: { results } })]);
    expect(html.match(/class="call"/g)).toHaveLength(STEP_ITEMS);
    expect(html.match(/class="obs"/g)).toHaveLength(STEP_ITEMS);
    expect(html).toContain("7 more tool calls not shown");
    expect(html).toContain("3 more observations not shown");
  });

  it("links the steps left out in windows, and shows a window with links before and after it", () => {
    const n = 1000;
    const steps = Array.from({ length: n }, (_, i) => step(i + 1, "ok"));
    expect(trajectory(steps)).toContain(
      `<a href="?steps_from=${TRAJECTORY_EDGE_STEPS + 1}#trajectory">Browse them ${TRAJECTORY_WINDOW_STEPS} at a time</a>`,
    );
    const html = windowOf(steps, 300);
    expect(shownSteps(html)).toEqual(Array.from({ length: TRAJECTORY_WINDOW_STEPS }, (_, i) => 301 + i));
    expect(html).toContain(`Steps 301–${300 + TRAJECTORY_WINDOW_STEPS} of 1,000 (in file order)`);
    expect(html).toContain(
      `<a href="?steps_from=${301 - TRAJECTORY_WINDOW_STEPS}#trajectory">previous steps</a>`,
    );
    expect(html).toContain(
      `<a href="?steps_from=${301 + TRAJECTORY_WINDOW_STEPS}#trajectory">next steps</a>`,
    );
    expect(html).toContain(`<a href="?#trajectory">its first and last steps</a>`);
    const tail = windowOf(steps, n - 10);
    expect(shownSteps(tail)).toEqual(Array.from({ length: 10 }, (_, i) => n - 9 + i));
    expect(tail).not.toContain("next steps");
    expect(windowOf(steps, 0)).not.toContain("previous steps");
    expect(windowOf(steps, n)).toContain("There is no step 1,001: the trajectory has 1,000 steps.");
  });
});
