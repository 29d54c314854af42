import { UserError } from "../core/errors.js";
import { type Band, DEFAULT_BAND, inBand, pickTarget, type TargetPick } from "./calibrate-band.js";
import { countedReward, isPass, isScored } from "./group-metrics.js";
import { cmp } from "./order.js";
import { bootstrapMean, type Estimate, type Rate, wilson } from "./stats.js";
import { DEFAULT_BOOTSTRAP_SAMPLES, DEFAULT_SEED } from "./summarize.js";
import { type AnalysisTrial, THRESHOLDS } from "./summary-types.js";

/** A trial as calibration reads it: an analysis trial, with the task's checksum when it is known. */
export type CalibrationTrial = AnalysisTrial & { task: { checksum?: string } };

/** How calibrate places tasks in a difficulty band and picks a subset. */
export interface CalibrationOptions {
  /** Solve-rate band (LOW, HIGH]; default (0, 0.5]: solved at least once, by at most half the attempts. */
  band?: Band;
  /** Scored attempts a task needs before it can be placed in the band; default 3. */
  minAttempts?: number;
  /** Pick this many tasks of the band, spread over categories in proportion to the band's. */
  target?: number;
  /** Seed of the bootstrap interval on each task's mean R. */
  seed?: number;
  bootstrapSamples?: number;
}

export const DEFAULT_MIN_ATTEMPTS = 3;

/** One agent × model on one task. */
export interface ModelOnTask {
  model: string;
  attempts: number;
  passes: number;
  meanReward: number | null;
}

/** One candidate task over every given trial. */
export interface TaskCalibration {
  /** 1 = the most solved: most models with a pass, then highest solve rate, then highest mean R. */
  rank: number;
  task: string;
  category: string;
  /** Agent × model pairs with at least one scored attempt. */
  models: number;
  /** Of those, the pairs with at least one attempt at R ≥ the pass threshold. */
  modelsPassing: number;
  /** Scored attempts (every trial but infra errors; a grading error counts as R = 0). */
  attempts: number;
  passes: number;
  /** passes / attempts with its Wilson 95% interval; p is null when no attempt was scored. */
  solveRate: Rate;
  /** Mean R over the scored attempts with a seeded bootstrap 95% interval. */
  meanReward: Estimate;
  /** Infra errors left out: never scored as the agent's failure. */
  infraExcluded: number;
  gradingErrors: number;
  /** Fewer scored attempts than minAttempts: listed, but never placed in the band. */
  fewAttempts: boolean;
  /** Different task checksums seen under this name (> 1: the task changed between jobs). */
  versions: number;
  inBand: boolean;
  perModel: ModelOnTask[];
}

/** Every candidate task ranked, the subset in the band, and the optional target pick. */
export interface Calibration {
  schema: "longhaul.calibration/1";
  threshold: number;
  band: Band;
  minAttempts: number;
  seed: number;
  bootstrapSamples: number;
  /** Agent × model labels seen, sorted. */
  models: string[];
  trials: number;
  infraExcluded: number;
  tasks: TaskCalibration[];
  /** Tasks in the band with enough attempts, in rank order. */
  proposed: string[];
  target: TargetPick | null;
}

interface Acc {
  task: string;
  category: string;
  checksums: Set<string>;
  rewards: number[];
  passes: number;
  infra: number;
  grading: number;
  perModel: Map<string, { attempts: number; passes: number; sum: number }>;
}

export function modelLabel(t: AnalysisTrial): string {
  return `${t.agent} / ${t.model ?? "-"}`;
}

/**
 * Ranks candidate tasks by how many models and attempts reach R ≥ THRESHOLDS.pass and by mean R,
 * and proposes those whose solve rate lies in the band: the seed's filtering of candidates down
 * to tasks that are solvable in principle but hard.
 */
export function calibrate(
  trials: readonly CalibrationTrial[],
  options: CalibrationOptions = {},
): Calibration {
  const band = options.band ?? DEFAULT_BAND;
  const minAttempts = options.minAttempts ?? DEFAULT_MIN_ATTEMPTS;
  const seed = options.seed ?? DEFAULT_SEED;
  const samples = options.bootstrapSamples ?? DEFAULT_BOOTSTRAP_SAMPLES;
  if (!Number.isInteger(minAttempts) || minAttempts < 1)
    throw new UserError(`min attempts: expected a positive integer, got ${minAttempts}`);
  if (options.target !== undefined && (!Number.isInteger(options.target) || options.target < 1))
    throw new UserError(`target: expected a positive integer, got ${options.target}`);
  const accs = new Map<string, Acc>();
  const models = new Set<string>();
  let infraExcluded = 0;
  for (const t of trials) {
    const acc = accOf(accs, t);
    if (t.task.checksum !== undefined) acc.checksums.add(t.task.checksum);
    if (!isScored(t)) {
      acc.infra++;
      infraExcluded++;
      continue;
    }
    const label = modelLabel(t);
    models.add(label);
    const r = countedReward(t);
    const passed = isPass(t);
    acc.rewards.push(r);
    if (passed) acc.passes++;
    if (t.outcome === "grading_error") acc.grading++;
    const m = acc.perModel.get(label) ?? { attempts: 0, passes: 0, sum: 0 };
    m.attempts++;
    m.sum += r;
    if (passed) m.passes++;
    acc.perModel.set(label, m);
  }
  const rows = [...accs.values()].map((a) => finish(a, band, minAttempts, seed, samples));
  rows.sort(byRank);
  rows.forEach((r, i) => {
    r.rank = i + 1;
  });
  const proposedRows = rows.filter((r) => r.inBand);
  return {
    schema: "longhaul.calibration/1",
    threshold: THRESHOLDS.pass,
    band,
    minAttempts,
    seed,
    bootstrapSamples: samples,
    models: [...models].sort(cmp),
    trials: trials.length,
    infraExcluded,
    tasks: rows,
    proposed: proposedRows.map((r) => r.task),
    target: options.target === undefined ? null : pickTarget(proposedRows, band, options.target),
  };
}

function accOf(accs: Map<string, Acc>, t: AnalysisTrial): Acc {
  let acc = accs.get(t.task.name);
  if (acc === undefined) {
    // The first trial's category stands for the task: a category is task metadata, one per name.
    acc = {
      task: t.task.name,
      category: t.task.category,
      checksums: new Set(),
      rewards: [],
      passes: 0,
      infra: 0,
      grading: 0,
      perModel: new Map(),
    };
    accs.set(t.task.name, acc);
  }
  return acc;
}

function finish(a: Acc, band: Band, minAttempts: number, seed: number, samples: number): TaskCalibration {
  const attempts = a.rewards.length;
  const solveRate = wilson(a.passes, attempts);
  const perModel = [...a.perModel.entries()]
    .map(([model, m]) => ({ model, attempts: m.attempts, passes: m.passes, meanReward: m.sum / m.attempts }))
    .sort((x, y) => cmp(x.model, y.model));
  const fewAttempts = attempts < minAttempts;
  return {
    rank: 0,
    task: a.task,
    category: a.category,
    models: perModel.length,
    modelsPassing: perModel.filter((m) => m.passes > 0).length,
    attempts,
    passes: a.passes,
    solveRate,
    // The label is the task name, so a task's interval does not move when other tasks are added.
    meanReward: bootstrapMean(a.rewards, seed, `calibrate:${a.task}`, samples),
    infraExcluded: a.infra,
    gradingErrors: a.grading,
    fewAttempts,
    versions: a.checksums.size,
    inBand: !fewAttempts && solveRate.p !== null && inBand(solveRate.p, band),
    perModel,
  };
}

function byRank(a: TaskCalibration, b: TaskCalibration): number {
  return (
    b.modelsPassing - a.modelsPassing ||
    (b.solveRate.p ?? -1) - (a.solveRate.p ?? -1) ||
    (b.meanReward.value ?? -1) - (a.meanReward.value ?? -1) ||
    cmp(a.task, b.task)
  );
}
