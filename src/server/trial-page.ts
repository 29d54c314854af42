import type { TrialResult, WorldCce } from "../core/index.js";
import {
  esc,
  facts,
  fmtInt,
  fmtReward,
  fmtSec,
  fmtUsd,
  MAX_TEXT,
  outcomeBadge,
  page,
  pre,
  preTail,
  table,
} from "./html.js";
import { PLAYER_JS, TERMINAL_JS } from "./player-js.js";
import type { TrajectoryEdges } from "./trajectory-file.js";
import { trajectorySection } from "./trajectory-section.js";
import type { Loaded } from "./trial-files.js";
import { WORLD_PLAYER_JS } from "./world-player-js.js";
import { worldReplaySection } from "./world-replay-section.js";

export interface TrialView {
  result: TrialResult;
  instruction: Loaded<{ text: string; skipped: number }>;
  trajectory: Loaded<TrajectoryEdges>;
  hasRecording: boolean;
  verifierStdout: { text: string; skipped: number } | null;
  verifierStderr: { text: string; skipped: number } | null;
}

/**
 * The end of a verifier log (its last lines say what failed), and a link to the whole file when
 * the page does not show all of it.
 */
function logTailBlock(title: string, file: { text: string; skipped: number } | null, href: string): string {
  if (file === null) return `<p class="muted">${esc(title)}: not recorded.</p>`;
  const whole = `<a href="${esc(href)}">the whole file</a>`;
  const note =
    file.skipped > 0 || file.text.length > MAX_TEXT
      ? `<p class="muted">only the end is shown; ${file.skipped > 0 ? `the first ${fmtInt(file.skipped)} bytes are left out; ` : ""}${whole}</p>`
      : "";
  return `<details><summary>${esc(title)}</summary>${note}${preTail(file.text)}</details>`;
}

function subtasksTable(r: TrialResult): string {
  if (r.subtasks.length === 0) return `<p class="muted">No subtask scores.</p>`;
  const rows = r.subtasks.map((s) => [
    esc(s.id),
    esc(s.kind),
    esc(s.visibility),
    `<span class="num">${esc(s.weight)}</span>`,
    `<span class="num">${s.score.toFixed(3)}</span>`,
    `${esc(s.message ?? "")}${s.error ? ` <span class="error">${esc(s.error)}</span>` : ""}`,
  ]);
  return table(["subtask", "kind", "visibility", "weight", "score", "message"], rows, 'id="subtasks"');
}

function playerSection(jobId: string, trialId: string): string {
  const src = `/api/jobs/${encodeURIComponent(jobId)}/trials/${encodeURIComponent(trialId)}/recording`;
  return `<div id="player" class="player" data-src="${esc(src)}" data-state="loading">
<div class="controls"><button class="play" disabled>Play</button><button class="end" disabled>Skip to end</button>
<label>speed <select class="speed"><option value="1">1×</option><option value="2">2×</option><option value="4">4×</option><option value="16">16×</option></select></label>
<span class="clock muted"></span></div>
<pre class="screen"></pre></div>`;
}

/** A world trial's verdict and team: success (SR), rounds, and each agent's actions. */
function worldSection(r: TrialResult): string {
  const w = r.world;
  if (w === null) return "";
  const verdict = facts([
    [
      "success",
      `<b id="world-success">${w.success ? "yes" : "no"}</b> <span class="muted">${esc(w.success_detail)}</span>`,
    ],
    ["rounds", `${esc(w.rounds)} of ${esc(w.max_rounds)}`],
    [
      "modifiers",
      `<span id="world-modifiers">${(w.modifiers ?? []).length === 0 ? "none" : (w.modifiers ?? []).map((m) => `<code>${esc(m)}</code>`).join(" ")}</span>`,
    ],
    ["run file", `<code>${esc(w.run_file)}</code> <span class="muted">(longhaul world replay)</span>`],
    ...(w.cce === undefined ? [] : [["causal contribution", cceFacts(w.cce)] as [string, string]]),
  ]);
  const pac = new Map((w.cce?.agents ?? []).map((a) => [a.id, a]));
  const ratio = (n: number, d: number): string => (d === 0 ? "–" : `${(n / d).toFixed(3)} (${n}/${d})`);
  const team = table(
    ["agent", "role", "actions", ...(w.cce === undefined ? [] : ["PAC", "share of calls"])],
    w.agents.map((a) => {
      const c = pac.get(a.id);
      const cce = w.cce;
      return [
        esc(a.id),
        esc(a.role),
        esc(a.actions),
        ...(cce === undefined
          ? []
          : [esc(ratio(c?.contributing ?? 0, c?.actions ?? 0)), esc(ratio(c?.actions ?? 0, cce.actions))]),
      ];
    }),
    'id="world-team"',
  );
  return `<h2>World</h2>${verdict}${team}${worldReplaySection(r.job_id, r.trial_id, w.cce !== undefined)}`;
}

/** CCE with its denominators, and the counterfactual check when it ran. */
function cceFacts(c: WorldCce): string {
  const cf = c.counterfactual;
  const check =
    cf === null
      ? ""
      : ` · closure calls necessary ${cf.inside.necessary}/${cf.inside.sampled}, outside calls breaking success ${cf.outside.breaking}/${cf.outside.sampled} (seed ${cf.seed})`;
  return `<span id="world-cce">CCE ${c.cce.toFixed(3)} (${c.contributing}/${c.actions} calls, ${c.waits} waits)${esc(check)}</span> <span class="muted">(docs/world.md, Causal contribution)</span>`;
}

export function trialPage(v: TrialView): string {
  const r = v.result;
  const jobHref = `/jobs/${encodeURIComponent(r.job_id)}`;
  const overview = facts([
    ["job", `<a href="${jobHref}">${esc(r.job_id)}</a>`],
    [
      "task",
      `${esc(r.task.name)} <span class="muted">(${esc(r.task.category)}${r.task.difficulty ? `, ${esc(r.task.difficulty)}` : ""})</span>`,
    ],
    ["agent", esc(r.agent)],
    ["model", esc(r.model ?? "—")],
    ["attempt", esc(r.attempt)],
    [
      "outcome",
      r.outcome === "grading_error"
        ? `${outcomeBadge(r.outcome)} <span class="error" id="grading-reason">${esc(r.grading_errors[0] ?? r.error?.message ?? "no reason recorded")}</span>`
        : outcomeBadge(r.outcome),
    ],
    ["R", `<b id="reward">${fmtReward(r.reward)}</b>`],
    ["self-terminated", r.self_terminated ? "yes" : "no"],
    ...(r.budget_left_sec === null
      ? []
      : [["budget left at stop", fmtSec(r.budget_left_sec)] as [string, string]]),
    ...(r.stress_digest === null
      ? []
      : [["stress digest", `<code>${esc(r.stress_digest)}</code>`] as [string, string]]),
    ["infra retries", esc(r.infra_retries)],
  ]);
  const timing = facts([
    ["started", esc(r.timing.started_at)],
    ["finished", esc(r.timing.finished_at)],
    ["setup", fmtSec(r.timing.setup_sec)],
    ["agent", fmtSec(r.timing.agent_sec)],
    ["verifier", fmtSec(r.timing.verifier_sec)],
    ["total", fmtSec(r.timing.total_sec)],
  ]);
  const u = r.usage;
  const usage = facts([
    ["cost", u.cost_known === false ? "unknown (model has no price)" : fmtUsd(u.cost_usd)],
    ["input tokens", fmtInt(u.input_tokens)],
    ["output tokens", fmtInt(u.output_tokens)],
    ["cached tokens", fmtInt(u.cached_tokens)],
    ["reasoning tokens", fmtInt(u.reasoning_tokens)],
    ["turns", fmtInt(u.turns)],
    ["parse errors", fmtInt(u.parse_errors)],
    ["model time", fmtSec(u.model_sec)],
    ["command time", fmtSec(u.command_sec)],
  ]);
  const error = r.error
    ? `<h2>Error</h2><p class="error" id="error"><b>${esc(r.error.kind)}</b>: ${esc(r.error.message)}</p>`
    : "";
  const gradingErrors =
    r.grading_errors.length > 0
      ? `<h2>Grading problems</h2><p class="muted">A grading_error counts as R = 0 in reports.</p><ul>${r.grading_errors.map((g) => `<li>${esc(g)}</li>`).join("")}</ul>`
      : "";
  const instruction =
    r.world !== null
      ? `<p class="muted">world task ${esc(r.task.path)}: goals and checkpoints are in the task file</p>`
      : v.instruction.state === "missing"
        ? `<p class="muted">instruction.md not found in ${esc(r.task.path)}</p>`
        : v.instruction.state === "invalid"
          ? `<p class="error" id="instruction-error">instruction.md in ${esc(r.task.path)} could not be read: ${esc(v.instruction.reason)}</p>`
          : `<details open><summary>instruction.md</summary>${pre(v.instruction.value.text)}${
              v.instruction.value.skipped > 0
                ? `<p class="muted">last ${fmtInt(v.instruction.value.skipped)} bytes not shown</p>`
                : ""
            }</details>`;
  const filesHref = `/api/jobs/${encodeURIComponent(r.job_id)}/trials/${encodeURIComponent(r.trial_id)}/files/verifier`;
  const body = `<h1>${esc(r.trial_id)}</h1>
<div style="display:flex;gap:40px;flex-wrap:wrap">
<section><h2>Overview</h2>${overview}</section>
<section><h2>Timing</h2>${timing}</section>
<section><h2>Usage</h2>${usage}</section>
</div>
${error}${gradingErrors}
${worldSection(r)}<h2>${r.world === null ? "Subtasks" : "Checkpoints"}</h2>${subtasksTable(r)}
<h2>Instruction</h2>${instruction}
<h2>Verifier output</h2>${logTailBlock("test-stdout.txt", v.verifierStdout, `${filesHref}/test-stdout.txt`)}${logTailBlock("test-stderr.txt", v.verifierStderr, `${filesHref}/test-stderr.txt`)}
<h2>Trajectory</h2>${trajectorySection(v.trajectory, `/api/jobs/${encodeURIComponent(r.job_id)}/trials/${encodeURIComponent(r.trial_id)}/trajectory`)}
<h2>Terminal recording</h2>${v.hasRecording ? playerSection(r.job_id, r.trial_id) : `<p class="muted">No recording.</p>`}`;
  const scripts = [
    ...(v.hasRecording ? [TERMINAL_JS, PLAYER_JS] : []),
    ...(r.world === null ? [] : [WORLD_PLAYER_JS]),
  ];
  return page(r.trial_id, body, scripts.join("\n"));
}
