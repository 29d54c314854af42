import { OUTCOMES } from "../core/index.js";
import { maskedPasswordNote } from "../report/job-lines.js";
import { type JobFacets, type JobRow, NO_MODEL, TRIAL_SORTS, type TrialPage } from "../store/trial-query.js";
import { esc, fmtInt, fmtReward, fmtSec, fmtUsd, outcomeBadge, page, table } from "./html.js";
import { listQueryString, PAGE_SIZES, type TrialListQuery } from "./params.js";

export function jobsPage(jobs: JobRow[]): string {
  const rows = jobs.map((j) => [
    `<a href="/jobs/${encodeURIComponent(j.id)}">${esc(j.id)}</a>`,
    j.status === "interrupted"
      ? `<span title="${esc(resumeCommand(j.id, null))} runs its trials that have no result yet">interrupted</span>`
      : esc(j.status),
    `<span class="num">${fmtInt(j.trials)}</span>`,
    fmtReward(j.mean_reward),
    esc(j.created_at),
  ]);
  const body =
    jobs.length === 0
      ? `<h1>Jobs</h1><p class="muted">No jobs in this folder yet. Start one with <code>longhaul run</code>.</p>`
      : `<h1>Jobs</h1>${table(["job", "status", "trials", "mean R", "created"], rows, 'id="jobs"')}`;
  return page("jobs", body);
}

function select(
  name: string,
  label: string,
  options: [string, string][],
  current: string | undefined,
): string {
  const opts = options
    .map(
      ([value, text]) =>
        `<option value="${esc(value)}"${value === (current ?? "") ? " selected" : ""}>${esc(text)}</option>`,
    )
    .join("");
  return `<label>${esc(label)}<select name="${esc(name)}">${opts}</select></label>`;
}

function filterForm(jobId: string, facets: JobFacets, q: TrialListQuery): string {
  const anyOption: [string, string] = ["", "any"];
  const models: [string, string][] = facets.models.map((m) => (m === null ? [NO_MODEL, "(none)"] : [m, m]));
  return `<form class="filters" method="get" action="/jobs/${encodeURIComponent(jobId)}">
${select("model", "model", [anyOption, ...models], q.model)}
${select("agent", "agent", [anyOption, ...facets.agents.map((a): [string, string] => [a, a])], q.agent)}
${select("task", "task", [anyOption, ...facets.tasks.map((t): [string, string] => [t, t])], q.task)}
${select("outcome", "outcome", [anyOption, ...OUTCOMES.map((o): [string, string] => [o, o])], q.outcome)}
<label>R ≥<input type="number" name="r_min" min="0" max="1" step="any" value="${esc(q.r_min)}"></label>
<label>R ≤<input type="number" name="r_max" min="0" max="1" step="any" value="${esc(q.r_max)}"></label>
${select(
  "sort",
  "sort by",
  TRIAL_SORTS.map((s): [string, string] => [s, s]),
  q.sort,
)}
${select(
  "order",
  "order",
  [
    ["asc", "ascending"],
    ["desc", "descending"],
  ],
  q.order,
)}
${select(
  "limit",
  "per page",
  PAGE_SIZES.map((n): [string, string] => [String(n), String(n)]),
  String(q.limit),
)}
<button type="submit">Apply</button> <a href="/jobs/${encodeURIComponent(jobId)}">clear</a>
</form>`;
}

function pager(jobId: string, q: TrialListQuery, total: number, shown: number): string {
  const base = `/jobs/${encodeURIComponent(jobId)}`;
  const from = total === 0 ? 0 : q.offset + 1;
  const to = q.offset + shown;
  const prev =
    q.offset > 0
      ? `<a rel="prev" href="${esc(base + listQueryString(q, { offset: Math.max(0, q.offset - q.limit) }))}">← previous</a>`
      : `<span class="muted">← previous</span>`;
  const next =
    to < total
      ? `<a rel="next" href="${esc(base + listQueryString(q, { offset: q.offset + q.limit }))}">next →</a>`
      : `<span class="muted">next →</span>`;
  return `<div class="pager">${prev}<span id="range">${fmtInt(from)}–${fmtInt(to)} of <span id="total">${fmtInt(total)}</span></span>${next}</div>`;
}

export function jobPage(
  job: JobRow,
  facets: JobFacets,
  q: TrialListQuery,
  trials: TrialPage,
  gradingReasons: ReadonlyMap<string, string> = new Map(),
  /** The jobs dir the viewer reads, for the resume command of an interrupted job. */
  jobsDir: string | null = null,
  /** The queue the job ran on, as its config.json records it (password masked), if any. */
  queueUrl?: string,
): string {
  const trialBase = `/jobs/${encodeURIComponent(job.id)}/trials/`;
  const rows = trials.rows.map((t) => [
    `<a href="${trialBase}${encodeURIComponent(t.trial_id)}">${esc(t.trial_id)}</a>`,
    esc(t.task_name),
    esc(t.agent),
    esc(t.model ?? "—"),
    esc(t.attempt),
    outcomeCell(t.outcome, gradingReasons.get(t.trial_id)),
    `<span class="reward">${fmtReward(t.reward)}</span>`,
    fmtSec(t.total_sec),
    fmtUsd(t.cost_usd),
  ]);
  const body = `<h1>${esc(job.id)}</h1>
<p class="muted">${esc(job.status)} · ${fmtInt(job.trials)} trials · mean R ${fmtReward(job.mean_reward)} · created ${esc(job.created_at)}</p>
${job.status === "interrupted" ? `<p id="resume">No process runs this job any more. <code>${esc(resumeCommand(job.id, jobsDir, queueUrl))}</code>${esc(maskedPasswordNote(resumeCommand(job.id, jobsDir, queueUrl)))} runs its trials that have no result yet.</p>\n` : ""}${filterForm(job.id, facets, q)}
${pager(job.id, q, trials.total, trials.rows.length)}
${table(["trial", "task", "agent", "model", "attempt", "outcome", "R", "time", "cost"], rows, `id="trials" data-rows="${trials.rows.length}"`)}
${pager(job.id, q, trials.total, trials.rows.length)}`;
  // Changing a drop-down applies the filter at once; the Apply button remains for the number fields.
  const script = `document.querySelectorAll("form.filters select").forEach(function (s) {
  s.addEventListener("change", function () { s.form.submit(); });
});`;
  return page(job.id, body, script);
}

/** A grading_error shows its first reason beside the badge: a contract violation must be visible. */
function outcomeCell(outcome: string, reason: string | undefined): string {
  if (reason === undefined) return outcomeBadge(outcome);
  const short = reason.length > 100 ? `${reason.slice(0, 99)}…` : reason;
  return `${outcomeBadge(outcome)} <span class="error grading-reason" title="${esc(reason)}">${esc(short)}</span>`;
}

/** The command that goes on with an interrupted job (a queued one names its queue, password masked). */
function resumeCommand(jobId: string, jobsDir: string | null, queueUrl?: string): string {
  const queue = queueUrl === undefined ? "" : ` --queue ${shellWord(queueUrl)}`;
  return `longhaul run --resume --job ${jobId}${jobsDir === null ? "" : ` --jobs-dir ${shellWord(jobsDir)}`}${queue}`;
}

/** A path as one shell word: quoted when it holds anything but plain characters. */
function shellWord(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replaceAll("'", "'\\''")}'`;
}
