import { afterAll, describe, expect, it } from "vitest";
import { renderCategoryTable, renderRunTable } from "../../src/cli/results-table.js";
import { createViewerApp } from "../../src/server/index.js";
import { type Attack, type AttackRun, runAttack } from "./harness.js";
import { type ProviderConfig, providerConfigs } from "./providers.js";
import { stopTrialProcess } from "./spawn-child.js";

/**
 * One `it` per attack, for every sandbox provider configuration; an attack whose outcome cannot
 * depend on the resource limits (`anyLimits`, or all of them with `o.anyLimits`) is not repeated on
 * a configuration that differs only in its limits. `o.providers`: these configurations instead.
 */
export function describeAttacks(
  title: string,
  attacks: Attack[],
  o: { anyLimits?: boolean; providers?: ProviderConfig[] } = {},
): void {
  // The process kept for isolated attacks (spawn-child.ts) ends with the file's last test.
  afterAll(stopTrialProcess);
  for (const p of o.providers ?? providerConfigs()) {
    const mine = attacks.filter(
      (a) => p.limitsVariant !== true || (o.anyLimits !== true && a.anyLimits !== true),
    );
    if (mine.length === 0) continue;
    describe(`${p.name}: ${title}`, () => {
      for (const a of mine) {
        it(a.name, async () => {
          await runAttack(p.name, a);
        }, 150_000);
      }
    });
  }
}

/** What the agent printed must reach the CLI table and the viewer as inert text. */
export async function expectRenderedSafely(r: AttackRun): Promise<void> {
  const table = `${renderRunTable([r.trial])}\n${renderCategoryTable([r.trial])}`;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is checked
  expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  const viewer = await createViewerApp({ jobsDir: r.jobsDir });
  try {
    const res = await viewer.app.request(`/jobs/${r.jobId}/trials/${r.trial.trial_id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html, "the payload reached the page (escaped)").toContain("&lt;script&gt;alert(1)");
    expect(html).not.toContain("<script>alert(");
    expect(html).not.toContain("<img src=x");
    // biome-ignore lint/suspicious/noControlCharactersInRegex: a raw ESC must not reach the page
    expect(html).not.toMatch(/\u001b/);
  } finally {
    await viewer.close();
  }
}
