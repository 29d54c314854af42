import { esc, fmtInt, fmtUsd, pre } from "./html.js";
import type { Step, TrajectoryEdges } from "./trajectory-file.js";
import type { Loaded } from "./trial-files.js";

/**
 * The trajectory part of a trial page, bounded. Each text is cut at MAX_TEXT characters, but a
 * trajectory can hold any number of steps, tool calls and observations (400,000 steps made a
 * 74 MB page; 3,100 steps of escaped text a 310 MB one that took the viewer's heap with it).
 * So the page shows the first and the last steps, each list within a step is cut, and rendering
 * stops once the HTML passes a byte budget; the whole trajectory stays available as JSON. Only
 * those ends are read in (see trajectory-file.ts), so a large file costs about what is shown.
 */

/** Steps shown from each end of a trajectory. */
export const TRAJECTORY_EDGE_STEPS = 100;
/** Steps shown in a window of the trajectory (`?steps_from=`): as many as its ends. */
export const TRAJECTORY_WINDOW_STEPS = 2 * TRAJECTORY_EDGE_STEPS;
/** Tool calls, and observations, shown per step. */
export const STEP_ITEMS = 50;
/** Bytes of trajectory HTML after which no more steps or items are added (one text may overrun it). */
export const TRAJECTORY_HTML_BUDGET = 2 * 1024 * 1024;

/** Bytes of HTML rendered so far against a limit. */
class Budget {
  used = 0;
  constructor(readonly limit: number) {}
  get spent(): boolean {
    return this.used >= this.limit;
  }
  take(html: string): string {
    this.used += Buffer.byteLength(html);
    return html;
  }
}

/** Renders items until the budget runs out or `STEP_ITEMS` are shown, noting what was left out. */
function boundedItems<T>(
  items: readonly T[],
  what: string,
  budget: Budget,
  render: (item: T) => string,
): string {
  const out: string[] = [];
  for (const item of items) {
    if (out.length >= STEP_ITEMS || budget.spent) break;
    out.push(budget.take(render(item)));
  }
  const left = items.length - out.length;
  if (left > 0) out.push(`<p class="muted">${fmtInt(left)} more ${what} not shown</p>`);
  return out.join("");
}

function stepHtml(s: Step, budget: Budget): string {
  const m = s.metrics;
  const metrics = m
    ? ` · ${fmtInt(m.prompt_tokens ?? 0)} in / ${fmtInt(m.completion_tokens ?? 0)} out · ${fmtUsd(m.cost_usd ?? 0)}`
    : "";
  const head = budget.take(
    `<div class="step s-${esc(s.source)}"><div class="meta">#${esc(s.step_id)} ${esc(s.source)} · ${esc(s.timestamp ?? "")}${metrics}</div>
${s.message ? pre(s.message) : ""}`,
  );
  const calls = boundedItems(
    s.tool_calls ?? [],
    "tool calls",
    budget,
    (c) =>
      `<div class="call"><b>${esc(c.function_name)}</b>${pre(JSON.stringify(c.arguments ?? {}, null, 2))}</div>`,
  );
  const obs = boundedItems(
    s.observation?.results ?? [],
    "observations",
    budget,
    (o) => `<details class="obs"><summary>observation</summary>${pre(o.content)}</details>`,
  );
  return `${head}${calls}${obs}</div>`;
}

/** `jsonHref` is the API route serving the whole trajectory, linked when steps are left out. */
export function trajectorySection(t: Loaded<TrajectoryEdges>, jsonHref: string): string {
  if (t.state === "missing") return `<p class="muted">This agent wrote no trajectory.</p>`;
  if (t.state === "invalid")
    return `<p class="error">agent/trajectory.json could not be read: ${esc(t.reason)}</p>`;
  const traj = t.value;
  const total = traj.total;
  const head = traj.agent
    ? `<p class="muted">${esc(traj.agent.name)} ${esc(traj.agent.version ?? "")} · ${esc(traj.agent.model_name ?? "")} · ${fmtInt(total)} steps</p>`
    : "";
  if (traj.from !== null) return `${head}${windowSection(traj, traj.from, jsonHref)}`;
  // The first steps get half the budget, the last ones what is left; they never overlap.
  const budget = new Budget(TRAJECTORY_HTML_BUDGET / 2);
  const first: string[] = [];
  while (first.length < traj.first.length && !budget.spent) {
    first.push(stepHtml(traj.first[first.length] as Step, budget));
  }
  const tailBudget = new Budget(TRAJECTORY_HTML_BUDGET - budget.used);
  const last: string[] = [];
  while (last.length < traj.last.length && total - last.length > first.length && !tailBudget.spent) {
    last.push(stepHtml(traj.last[traj.last.length - 1 - last.length] as Step, tailBudget));
  }
  last.reverse();
  const left = total - first.length - last.length;
  const gap =
    left === 0
      ? ""
      : `<p class="muted" id="trajectory-cut">${fmtInt(left)} of ${fmtInt(total)} steps not shown (steps ${fmtInt(first.length + 1)}–${fmtInt(first.length + left)} in file order): the page shows at most the first and last ${fmtInt(TRAJECTORY_EDGE_STEPS)} steps and about ${fmtInt(TRAJECTORY_HTML_BUDGET / (1024 * 1024))} MB of trajectory.${unreadNote(traj)} <a href="?steps_from=${first.length + 1}#trajectory">Browse them ${fmtInt(TRAJECTORY_WINDOW_STEPS)} at a time</a>. The whole trajectory is at <a href="${esc(jsonHref)}">${esc(jsonHref)}</a> (JSON).</p>`;
  return `${head}<div id="trajectory">${[...first, gap, ...last].filter((x) => x !== "").join("\n")}</div>`;
}

/** For a file read only where shown: what was not checked. */
function unreadNote(traj: TrajectoryEdges): string {
  return traj.checked_all
    ? ""
    : ` The file is ${(traj.bytes / (1024 * 1024)).toFixed(1)} MB, so only the steps shown were read; the others were counted, not checked.`;
}

/**
 * A window of steps from position `from` (0-based), within the same byte budget, with links to the
 * windows before and after it and back to the trajectory's ends.
 */
function windowSection(traj: TrajectoryEdges, from: number, jsonHref: string): string {
  const budget = new Budget(TRAJECTORY_HTML_BUDGET);
  const shown: string[] = [];
  while (shown.length < traj.first.length && !budget.spent) {
    shown.push(stepHtml(traj.first[shown.length] as Step, budget));
  }
  const ends = `<a href="?#trajectory">its first and last steps</a>`;
  const whole = `<a href="${esc(jsonHref)}">the whole trajectory</a> (JSON)`;
  if (shown.length === 0) {
    return `<p class="muted" id="trajectory-window">There is no step ${fmtInt(from + 1)}: the trajectory has ${fmtInt(traj.total)} steps. See ${ends}.</p><div id="trajectory"></div>`;
  }
  const last = from + shown.length;
  const links = [
    from > 0
      ? `<a href="?steps_from=${Math.max(1, from + 1 - TRAJECTORY_WINDOW_STEPS)}#trajectory">previous steps</a>`
      : "",
    last < traj.total ? `<a href="?steps_from=${last + 1}#trajectory">next steps</a>` : "",
    ends,
    whole,
  ].filter((x) => x !== "");
  const nav = `Steps ${fmtInt(from + 1)}–${fmtInt(last)} of ${fmtInt(traj.total)} (in file order) · ${links.join(" · ")}`;
  return `<p class="muted" id="trajectory-window">${nav}.${unreadNote(traj)}</p><div id="trajectory">${shown.join("\n")}</div><p class="muted">${nav}.</p>`;
}
