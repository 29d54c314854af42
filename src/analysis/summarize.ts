import { UserError } from "../core/errors.js";
import { continuationRows } from "./continuation.js";
import { crossGroup } from "./cross-group.js";
import {
  addTrial,
  finishGroup,
  type GroupAcc,
  type GroupContext,
  isScored,
  mergeAcc,
  newAcc,
} from "./group-metrics.js";
import { digestConflictsWithinJobs } from "./hidden-cases.js";
import { cmp } from "./order.js";
import { BOOTSTRAP_MAX_N, wilson } from "./stats.js";
import {
  type AnalysisTrial,
  GROUP_DIMS,
  type GroupDim,
  type GroupKey,
  type GroupMetrics,
  type Level,
  reaches,
  type SubtaskMetrics,
  type Summary,
  THRESHOLDS,
} from "./summary-types.js";
import { worldCceSummary } from "./world-cce.js";
import { worldChatSummary } from "./world-chat.js";
import { worldSeedRows } from "./world-seeds.js";

/** How summarize groups trials and draws its bootstrap intervals. */
export interface SummarizeOptions {
  /** Dimensions of the main groups; default agent × model. */
  groupBy?: readonly GroupDim[];
  /** Seed of the bootstrap; recorded in the summary so intervals can be reproduced. */
  seed?: number;
  /** Bootstrap resamples per interval; default 1000. */
  bootstrapSamples?: number;
}

export const DEFAULT_GROUP_BY: readonly GroupDim[] = ["agent", "model"];
export const DEFAULT_SEED = 20260101;
export const DEFAULT_BOOTSTRAP_SAMPLES = 1000;

export function dimValue(t: AnalysisTrial, dim: GroupDim): string {
  switch (dim) {
    case "agent":
      return t.agent;
    case "model":
      return t.model ?? "-";
    case "category":
      return t.task.category;
    case "task":
      return t.task.name;
  }
}

function keyOf(t: AnalysisTrial, dims: readonly GroupDim[]): GroupKey {
  const key: GroupKey = {};
  for (const d of dims) key[d] = dimValue(t, d);
  return key;
}

function labelOf(key: GroupKey, dims: readonly GroupDim[]): string {
  return dims.map((d) => key[d] ?? "-").join(" / ");
}

/**
 * Partition trials by the given dimensions, buckets in first-seen order. Dimension values are
 * interned to small integers so the bucket key is a number (mixed radix over the actual counts
 * of distinct values), falling back to a string only if that number could lose precision.
 */
function partition(
  trials: readonly AnalysisTrial[],
  dims: readonly GroupDim[],
): Map<number | string, { key: GroupKey; trials: AnalysisTrial[] }> {
  const codes = dims.map((dim) => {
    const table = new Map<string, number>();
    const col = new Int32Array(trials.length);
    for (let i = 0; i < trials.length; i++) {
      const v = dimValue(trials[i] as AnalysisTrial, dim);
      let code = table.get(v);
      if (code === undefined) {
        code = table.size;
        table.set(v, code);
      }
      col[i] = code;
    }
    return { col, size: Math.max(1, table.size) };
  });
  const exact = codes.reduce((p, c) => p * c.size, 1) <= Number.MAX_SAFE_INTEGER;
  const out = new Map<number | string, { key: GroupKey; trials: AnalysisTrial[] }>();
  for (let i = 0; i < trials.length; i++) {
    const t = trials[i] as AnalysisTrial;
    let id: number | string = exact ? 0 : "";
    for (const c of codes) {
      const code = c.col[i] as number;
      id = typeof id === "number" ? id * c.size + code : `${id}${code},`;
    }
    const bucket = out.get(id);
    if (bucket === undefined) out.set(id, { key: keyOf(t, dims), trials: [t] });
    else bucket.trials.push(t);
  }
  return out;
}

export function validateGroupBy(groupBy: readonly string[]): GroupDim[] {
  const dims: GroupDim[] = [];
  for (const d of groupBy) {
    const dim = GROUP_DIMS.find((g) => g === d);
    if (dim === undefined)
      throw new UserError(`group by: unknown dimension "${d}" (use ${GROUP_DIMS.join(", ")})`);
    if (!dims.includes(dim)) dims.push(dim);
  }
  if (dims.length === 0) throw new UserError("group by: give at least one dimension");
  return dims;
}

/** Every metric of a set of trials (stored or imported), per group, category and task, with intervals: the input of every report renderer. */
export function summarize(trials: readonly AnalysisTrial[], options: SummarizeOptions = {}): Summary {
  const groupBy = validateGroupBy(options.groupBy ?? DEFAULT_GROUP_BY);
  const seed = options.seed ?? DEFAULT_SEED;
  const requested = options.bootstrapSamples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  if (!Number.isInteger(requested) || requested < 0) {
    throw new UserError(`bootstrap samples: expected a non-negative integer, got ${requested}`);
  }
  if (!Number.isInteger(seed) || seed < 0)
    throw new UserError(`seed: expected a non-negative integer, got ${seed}`);
  // One pass over the trials at the finest level (group × category × task); coarser rows are
  // merged from those accumulators, so the cost is one read of each trial whatever the levels.
  const taskDims = withDim(withDim(groupBy, "category"), "task");
  const catDims = withDim(groupBy, "category");
  const taskParts = partition(trials, taskDims);
  const idOf = (key: GroupKey, dims: readonly GroupDim[]) => dims.map((d) => key[d] ?? "").join("\u0000");
  const groupAccs = new Map<string, { key: GroupKey; acc: GroupAcc }>();
  const catAccs = new Map<string, { key: GroupKey; acc: GroupAcc }>();
  const overallAcc = newAcc();
  const byTask: GroupMetrics[] = [];
  for (const { key, trials: ts } of taskParts.values()) {
    const acc = newAcc();
    for (const t of ts) addTrial(acc, t);
    byTask.push(finishGroup(acc, ctxFor("task", key, taskDims, groupBy, seed, 0)));
    mergeInto(groupAccs, idOf(key, groupBy), pick(key, groupBy), acc, true);
    mergeInto(catAccs, idOf(key, catDims), pick(key, catDims), acc, false);
    mergeAcc(overallAcc, acc, true);
  }
  const samples = effectiveSamples(
    [...groupAccs.values()].map((g) => g.acc.scored),
    overallAcc.scored,
    requested,
  );
  const overall = finishGroup(overallAcc, {
    level: "overall",
    key: {},
    label: "all",
    groupLabel: "all",
    seed,
    samples,
  });
  const groups = [...groupAccs.values()].map(({ key, acc }) =>
    finishGroup(acc, ctxFor("group", key, groupBy, groupBy, seed, samples)),
  );
  // Breakdown rows carry means only: intervals there would cost as much again per level, and
  // grouping by category or task directly gives them intervals when they are wanted.
  const byCategory = [...catAccs.values()].map(({ key, acc }) =>
    finishGroup(acc, ctxFor("category", key, catDims, groupBy, seed, 0)),
  );
  for (const rows of [groups, byCategory, byTask]) rows.sort((a, b) => cmp(a.label, b.label));
  return {
    schema: "longhaul.summary/2",
    source: "trials",
    seed,
    bootstrapSamples: samples,
    groupBy,
    thresholds: THRESHOLDS,
    overall,
    groups,
    byCategory,
    byTask,
    bySubtask: subtaskMetrics(taskParts, groupBy),
    ...crossGroup(groups, seed, samples),
    hiddenCaseWarnings: digestConflictsWithinJobs(trials),
    recovered: [],
    continuation: continuationRows(trials),
    references: [],
    ...worldCount(trials),
  };
}

function worldCount(
  trials: readonly AnalysisTrial[],
): Pick<Summary, "worldTrials" | "worldSeeds" | "worldCce" | "worldChat"> {
  const n = trials.filter((t) => t.world).length;
  if (n === 0) return {};
  const cce = worldCceSummary(trials);
  const chat = worldChatSummary(trials);
  return {
    worldTrials: n,
    worldSeeds: worldSeedRows(trials),
    ...(cce === null ? {} : { worldCce: cce }),
    ...(chat === null ? {} : { worldChat: chat }),
  };
}

/** Upper bound on bootstrap draws per summary, so large stores stay fast (see docs/reports.md). */
export const BOOTSTRAP_DRAW_BUDGET = 20_000_000;
export const MIN_BOOTSTRAP_SAMPLES = 200;

/**
 * The resamples actually used: the requested number, lowered (never below 200) when the groups
 * that get a bootstrap hold so many trials that samples × trials would exceed the draw budget.
 * It depends only on the input, so the same trials and seed always give the same intervals.
 */
function effectiveSamples(groupScored: readonly number[], totalScored: number, requested: number): number {
  let draws = totalScored <= BOOTSTRAP_MAX_N ? totalScored : 0;
  for (const n of groupScored) if (n <= BOOTSTRAP_MAX_N) draws += n;
  if (draws === 0 || requested * draws <= BOOTSTRAP_DRAW_BUDGET) return requested;
  return Math.min(requested, Math.max(MIN_BOOTSTRAP_SAMPLES, Math.floor(BOOTSTRAP_DRAW_BUDGET / draws)));
}

function pick(key: GroupKey, dims: readonly GroupDim[]): GroupKey {
  const out: GroupKey = {};
  for (const d of dims) out[d] = key[d] ?? "-";
  return out;
}

function mergeInto(
  map: Map<string, { key: GroupKey; acc: GroupAcc }>,
  id: string,
  key: GroupKey,
  acc: GroupAcc,
  withRewards: boolean,
): void {
  let entry = map.get(id);
  if (entry === undefined) {
    entry = { key, acc: newAcc() };
    map.set(id, entry);
  }
  mergeAcc(entry.acc, acc, withRewards);
}

function ctxFor(
  level: Level,
  key: GroupKey,
  dims: readonly GroupDim[],
  groupBy: readonly GroupDim[],
  seed: number,
  samples: number,
): GroupContext {
  const groupLabel = labelOf(key, groupBy);
  const extra = dims.filter((d) => !groupBy.includes(d));
  const label = extra.length === 0 ? groupLabel : `${groupLabel} · ${labelOf(key, extra)}`;
  return { level, key, label, groupLabel, seed, samples };
}

function withDim(dims: readonly GroupDim[], dim: GroupDim): GroupDim[] {
  return dims.includes(dim) ? [...dims] : [...dims, dim];
}

type SubtaskAcc = SubtaskMetrics & { sum: number; solvedK: number };

/** Per group, task and subtask, read from the task-level buckets (one group and one task each). */
function subtaskMetrics(
  parts: ReadonlyMap<unknown, { key: GroupKey; trials: readonly AnalysisTrial[] }>,
  groupBy: readonly GroupDim[],
): SubtaskMetrics[] {
  const out: SubtaskMetrics[] = [];
  const pass = THRESHOLDS.pass;
  for (const { key, trials } of parts.values()) {
    const rows = new Map<string, SubtaskAcc>();
    for (const t of trials) {
      if (t.subtasks.length === 0 || !isScored(t)) continue;
      for (const s of t.subtasks) {
        let row = rows.get(s.id);
        if (row === undefined) {
          row = {
            key: { ...pick(key, groupBy), category: t.task.category, task: t.task.name },
            groupLabel: labelOf(key, groupBy),
            task: t.task.name,
            subtask: s.id,
            weight: s.weight,
            kind: s.kind ?? null,
            n: 0,
            meanScore: null,
            solved: wilson(0, 0),
            sum: 0,
            solvedK: 0,
          };
          rows.set(s.id, row);
        }
        row.n++;
        row.sum += s.score;
        if (reaches(s.score, pass)) row.solvedK++;
      }
    }
    for (const { sum, solvedK, ...row } of rows.values()) {
      out.push({ ...row, meanScore: sum / row.n, solved: wilson(solvedK, row.n) });
    }
  }
  return out.sort(
    (a, b) => cmp(a.groupLabel, b.groupLabel) || cmp(a.task, b.task) || cmp(a.subtask, b.subtask),
  );
}

export { cmp, crossGroup };
