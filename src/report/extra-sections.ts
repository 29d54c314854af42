import type { GroupMetrics, Summary } from "../analysis/summary-types.js";
import { agreementText, DASH, duration, rate, reasonCell, withInterval } from "./format.js";
import type { Section } from "./sections.js";

const DIGEST_NOTE =
  "WARNING: agents on the same (task, attempt) of one job saw different hidden stress inputs " +
  "(different stress digests); their scores are not comparable there";

/** The ρ/τ notes under the main table: Pass@1 at both thresholds against mean R. */
export function correlationNotes(s: Summary): string[] {
  const c = s.correlation;
  return [
    `Pass@1 R≥0.95 vs mean R across ${c.n} groups: ${agreementText(c.pass095VsMean)}`,
    `Pass@1 R=1 vs mean R across ${c.pass100VsMean.n} groups: ${agreementText(c.pass100VsMean)}`,
  ];
}

export function hiddenCaseNotes(s: Summary): string[] {
  if (s.hiddenCaseWarnings.length === 0) return [];
  const list = s.hiddenCaseWarnings
    .slice(0, 8)
    .map((w) => `${w.task} (attempt ${w.attempt}: ${w.digestsA.length} digests)`)
    .join(", ");
  const more = s.hiddenCaseWarnings.length > 8 ? `, and ${s.hiddenCaseWarnings.length - 8} more` : "";
  return [`${DIGEST_NOTE}: ${list}${more}`];
}

function rows(s: Summary): GroupMetrics[] {
  return [...s.groups, ...(s.groups.length > 1 ? [s.overall] : [])];
}

/** False finishes as LHTB counts them, the broader early stops, and the budget left at them. */
export function falseFinishSection(s: Summary): Section | null {
  if (s.source !== "trials") return null;
  return {
    title: "False finishes (self-terminated trials)",
    header: [
      s.groupBy.join(" / "),
      "self-terminated",
      "false finish 0.75≤R<0.95",
      "stopped early R<0.95",
      "budget left: mean",
      "median",
      "n",
    ],
    rows: rows(s).map((g) => [
      g.label,
      String(g.falseFinish?.n ?? 0),
      rate(g.falseFinish),
      rate(g.stoppedEarly),
      duration(g.falseFinishBudget?.meanSec ?? null),
      duration(g.falseFinishBudget?.medianSec ?? null),
      String(g.falseFinishBudget?.n ?? 0),
    ]),
    notes: [
      "false finish = the agent declared completion with 0.75 ≤ R < 0.95 (LHTB's definition); stopped early = declared completion with any R < 0.95; both over self-terminated trials",
      "budget left = agent budget remaining at the stop, over false finishes that recorded it",
    ],
  };
}

/** Grading errors count as R = 0; listing the first reason makes a broken verifier visible. */
export function gradingErrorSection(s: Summary): Section | null {
  const withErrors = s.groups.filter((g) => g.gradingErrors.count > 0);
  if (withErrors.length === 0) return null;
  return {
    title: "Grading errors (counted as R = 0)",
    header: [s.groupBy.join(" / "), "grading errors", "first task", "first reason"],
    rows: withErrors.map((g) => [
      g.label,
      String(g.gradingErrors.count),
      g.gradingErrors.firstTask ?? DASH,
      reasonCell(g.gradingErrors.firstReason),
    ]),
    notes: [],
  };
}

/** Published rows: the k/n behind each printed rate, and the rates no whole count reproduces. */
export function recoveredSection(s: Summary): Section | null {
  if (s.recovered.length === 0) return null;
  const cell = (r: Summary["recovered"][number]["pass095"]) => {
    if (r === null) return DASH;
    const unit = r.printed.unit === "pct" ? "%" : "";
    const shown = `${r.printed.value.toFixed(r.printed.decimals)}${unit}`;
    if (r.reproduces) {
      const alt = r.candidates.length > 1 ? ` (any of ${r.candidates.join(", ")})` : "";
      return `${shown} = ${r.k}/${r.n}${alt}`;
    }
    return `${shown} ≠ any k/${r.n} (nearest ${r.k}/${r.n} = ${((100 * r.k) / r.n).toFixed(r.printed.decimals + 1)}%)`;
  };
  const bad = s.recovered.flatMap((r) =>
    [r.pass095, r.pass100].filter((x) => x !== null && !x.reproduces).map(() => r.label),
  );
  return {
    title: "Counts recovered from printed rates (k = round(p·n), n = tasks)",
    header: ["row", "n", "Pass@1 R≥0.95", "Pass@1 R=1"],
    rows: s.recovered.map((r) => [r.label, String(r.n), cell(r.pass095), cell(r.pass100)]),
    notes: [
      bad.length === 0
        ? "every printed rate is k/n for a whole k at the table's precision"
        : `NOT REPRODUCIBLE: no whole count over n gives the printed rate for ${[...new Set(bad)].join(", ")}`,
    ],
  };
}

/** Rank agreement with each reference source. */
export function referenceSections(s: Summary): Section[] {
  return s.references.map((ref) => ({
    title: `Rank agreement with ${ref.reference}`,
    header: ["metric", "matched", "ρ [95% CI]", "τ-b [95% CI]", "only here", "only there"],
    rows: ref.comparisons.map((c) => [
      c.metric,
      String(c.agreement.n),
      withInterval(c.agreement.spearman),
      withInterval(c.agreement.kendall),
      c.onlyA.join(", ") || DASH,
      c.onlyB.join(", ") || DASH,
    ]),
    notes: ref.comparisons.map((c) => `${c.metric}: ${agreementText(c.agreement)}`),
  }));
}

/** Continue-until-timeout mode: R when the agent first claimed completion beside R at its deadline. */
export function continuationSection(s: Summary): Section | null {
  if (s.continuation.length === 0) return null;
  const r3 = (x: number | null): string => (x === null ? DASH : x.toFixed(3));
  return {
    title: "Continue-until-timeout (run --until-timeout): first claimed completion vs deadline",
    header: [
      "agent / model",
      "trials",
      "claimed done",
      "self-terminations",
      "re-entries",
      "sent back",
      "mean R at first claim",
      "mean R at end",
      "Pass@1 first → end",
      "false finishes at first claim",
      "recovered",
    ],
    rows: s.continuation.map((c) => [
      c.label,
      String(c.trials),
      String(c.stopped),
      String(c.selfTerminations),
      String(c.reentries),
      String(c.sentBack),
      r3(c.meanRewardAtFirstStop),
      r3(c.meanFinalReward),
      `${c.passAtFirstStop}/${c.stopped} → ${c.passAtEnd}/${c.stopped}`,
      String(c.falseFinishesAtFirstStop),
      String(c.recovered),
    ]),
    notes: [
      "R at first claim is what a normal run would have scored; the agent was sent back while public checks failed and worked on until its budget ended",
      "recovered = below 0.95 at the first claim and at least 0.95 by the deadline; means are over trials that claimed completion",
    ],
  };
}

/** World trials attempt by attempt (a seed each): SR and PSR per attempt, and their spread. */
export function worldSeedSection(s: Summary): Section | null {
  const rows = s.worldSeeds ?? [];
  if (rows.length === 0) return null;
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const sd = (x: number | null, f: (v: number) => string): string => (x === null ? DASH : f(x));
  return {
    title: "World tasks: SR and PSR per attempt (one seed each) and their spread",
    header: [
      "agent / model",
      "attempts",
      "SR per attempt",
      "PSR per attempt",
      "SR range (sd)",
      "PSR range (sd)",
    ],
    rows: rows.map((r) => [
      r.label,
      String(r.attempts.length),
      r.attempts.map((a) => `${a.successes}/${a.tasks}`).join(" · "),
      r.attempts.map((a) => a.psr.toFixed(3)).join(" · "),
      `${pct(r.srSpread.range)} (${sd(r.srSpread.sd, pct)})`,
      `${r.psrSpread.range.toFixed(3)} (${sd(r.psrSpread.sd, (v) => v.toFixed(3))})`,
    ]),
    notes: [
      "SR = share of tasks whose success condition held; PSR = mean R (the weighted share of checkpoints); range = max − min over attempts, sd = sample standard deviation",
    ],
  };
}
