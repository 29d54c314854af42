import type { Command } from "commander";
import { type BinaryAgreement, binaryAgreement } from "../../analysis/agreement.js";
import { UserError } from "../../core/index.js";
import {
  MODEL_OPTION_KEYS,
  ModelClient,
  parseModelId,
  settingsFromOptions,
  type UsageTotals,
} from "../../models/index.js";
import { type JudgeResult, runJudge } from "../../world/cce/judge.js";
import { judgeActions, judgeBrief } from "../../world/cce/judge-prompt.js";
import { indexRun } from "../../world/cce/log.js";
import { worldCce } from "../../world/cce/world-cce.js";
import type { RunFile } from "../../world/engine/session.js";
import { collect } from "../options.js";
import { replayedTaskRun } from "./world-replayed-run.js";

interface JudgeOpts {
  model: string;
  baseUrl?: string;
  modelOpt?: string[];
  json?: boolean;
  content?: string;
}

/** Everything `world judge` prints, as `--json` prints it. */
export interface WorldJudgeReport {
  success: boolean;
  calls: number;
  model: string;
  tracer: { witnesses: number[]; closure: number[] };
  judge: JudgeResult;
  /** Over every call of the run, tracer = A, judge = B; null when the judge failed before that step. */
  agreement: { witnesses: BinaryAgreement | null; closure: BinaryAgreement | null };
  usage: UsageTotals;
}

/** `longhaul world judge RUN --model P:M`: an LLM judge's closure against the tracer's (docs/world.md). */
export function registerWorldJudgeCommand(world: Command, readRun: (file: string) => RunFile): void {
  world
    .command("judge")
    .description(
      "Ask a model to judge a world-task run's success actions and closure; agreement with the tracer",
    )
    .argument("<run>", "run file of a world task (world-run.json)")
    .requiredOption("-m, --model <provider:model>", "the judge's model")
    .option("--base-url <url>", "base URL for an openai-compatible model")
    .option(
      "--model-opt <key=value>",
      `a model setting (${MODEL_OPTION_KEYS.join(", ")}; repeatable)`,
      collect,
    )
    .option("--json", "print JSON")
    .option("--content <dir>", "load a content pack folder instead of generating one from the run's seed")
    .action(async (file: string, opts: JudgeOpts) => {
      const report = await worldJudge(file, opts, readRun);
      if (opts.json === true) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else process.stdout.write(judgeText(report));
      // The judge gave no usable answer: a check that failed, not a crash.
      if (report.judge.failure !== null) process.exitCode = 1;
    });
}

function modelSettings(opts: JudgeOpts) {
  const pairs: Record<string, string> = {};
  for (const pair of opts.modelOpt ?? []) {
    const eq = pair.indexOf("=");
    const key = pair.slice(0, eq);
    if (eq <= 0 || !MODEL_OPTION_KEYS.includes(key))
      throw new UserError(
        `--model-opt: expected KEY=VALUE with KEY one of ${MODEL_OPTION_KEYS.join(", ")}, got "${pair}"`,
      );
    pairs[key] = pair.slice(eq + 1);
  }
  if (opts.baseUrl !== undefined) pairs.base_url = opts.baseUrl;
  return settingsFromOptions(pairs);
}

async function worldJudge(
  file: string,
  opts: JudgeOpts,
  readRun: (file: string) => RunFile,
): Promise<WorldJudgeReport> {
  // The model is checked before the run is replayed, so a typo fails at once.
  parseModelId(opts.model);
  const client = new ModelClient(opts.model, {
    settings: modelSettings(opts),
    onRetry: ({ attempt, reason, waitMs }) =>
      process.stderr.write(
        `judge: model call failed (${reason}); retry ${attempt} in ${Math.round(waitMs)} ms\n`,
      ),
  });
  const run = readRun(file);
  const { base, spec, session: s, verdict, prior } = replayedTaskRun(file, run, opts.content, "judge");
  const cce = worldCce({
    spec,
    base,
    state: s.state,
    events: s.events,
    calls: run.calls,
    success: verdict.success,
    prior,
    counterfactual: null,
  });
  const actions = judgeActions(indexRun(s.events, s.state.lots.toArray()), run.calls);
  const judge = await runJudge(client, judgeBrief(spec, s.state, verdict, actions), actions);
  const n = cce.actions;
  return {
    success: verdict.success,
    calls: n,
    model: opts.model,
    tracer: { witnesses: cce.witnesses, closure: cce.closure },
    judge,
    agreement: {
      witnesses:
        judge.successActions === null ? null : binaryAgreement(n, cce.witnesses, judge.successActions),
      closure: judge.closure === null ? null : binaryAgreement(n, cce.closure, judge.closure),
    },
    usage: client.totals(),
  };
}

const list = (xs: readonly number[]): string => (xs.length === 0 ? "–" : xs.map((i) => `#${i}`).join(" "));
const fix = (x: number | null): string => (x === null ? "–" : x.toFixed(3));

function agreementLines(what: string, a: BinaryAgreement): string[] {
  const t = a.table;
  const agreed = t.both + t.neither;
  return [
    `${what} agreement over ${a.n} calls: raw ${fix(a.raw)} (${agreed}/${a.n}), κ ${fix(a.kappa)} (chance ${fix(a.expected)})`,
    `               judge in  judge out`,
    `  tracer in  ${String(t.both).padStart(9)}  ${String(t.onlyA).padStart(9)}`,
    `  tracer out ${String(t.onlyB).padStart(9)}  ${String(t.neither).padStart(9)}`,
  ];
}

/** The text report: success actions against witnesses, closure sizes, agreement, tokens and cost. */
export function judgeText(r: WorldJudgeReport): string {
  const j = r.judge;
  const lines = [
    `success: ${r.success ? "yes" : "no"}`,
    `judge ${r.model}: model calls ${j.modelCalls}, answers rejected ${j.rejected.length}`,
    ...j.rejected.map((x) => `  rejected (${x.step}): ${x.problem}`),
    `witnesses (tracer): ${list(r.tracer.witnesses)}`,
    `success actions (judge): ${j.successActions === null ? "none (failed)" : list(j.successActions)}`,
  ];
  if (r.agreement.witnesses !== null) lines.push(...agreementLines("witness", r.agreement.witnesses));
  lines.push(
    `closure: tracer ${r.tracer.closure.length} calls, judge ${j.closure === null ? "– (failed)" : `${j.closure.length} calls`}`,
  );
  if (r.agreement.closure !== null) lines.push(...agreementLines("closure", r.agreement.closure));
  if (j.failure !== null)
    lines.push(`judge failed at ${j.failure.step} after ${j.failure.attempts} answers: ${j.failure.problem}`);
  const u = r.usage;
  const cost =
    u.unpricedCalls > 0 ? "cost unknown (no price for the model)" : `cost $${u.costUsd.toFixed(4)}`;
  lines.push(`tokens: ${u.tokens.inputTokens} input, ${u.tokens.outputTokens} output; ${cost}`);
  return `${lines.join("\n")}\n`;
}
