import type { Calibration, TaskCalibration } from "../analysis/calibrate.js";
import { DASH, estimate, rateWithInterval } from "./format.js";

/** One table of a calibration report, as every format draws it. */
export interface CalibrationSection {
  title: string;
  header: string[];
  rows: string[][];
  notes: string[];
}

/** `(0, 0.5]`: the band as the solve rate must satisfy it. */
export function bandText(c: Calibration): string {
  return `(${c.band.low}, ${c.band.high}]`;
}

/** One line saying what was read and what the band proposes. */
export function calibrationHeadline(c: Calibration): string {
  const inBand = c.proposed.length;
  return (
    `${c.tasks.length} candidate task(s), ${c.models.length} agent × model pair(s), ${c.trials} trial(s) ` +
    `(${c.infraExcluded} infra error(s) excluded, never counted as failures); pass = R ≥ ${c.threshold}; ` +
    `band: solve rate in ${bandText(c)}; ${inBand} task(s) proposed`
  );
}

function bandCell(t: TaskCalibration, picked: ReadonlySet<string>): string {
  if (t.fewAttempts) return "too few attempts";
  if (!t.inBand) return DASH;
  return picked.has(t.task) ? "in band, picked" : "in band";
}

/** The ranked task table, then the target's per-category quotas when a target was given. */
export function calibrationSections(c: Calibration): CalibrationSection[] {
  const picked = new Set(c.target?.picked ?? []);
  const notes: string[] = [
    "Rank 1 is the most solved task: most agent × model pairs with a pass, then the highest solve rate, then the highest mean R.",
    `Solve rate = attempts at R ≥ ${c.threshold} over scored attempts (Wilson 95% interval); mean R with a bootstrap 95% interval (seed ${c.seed}, ${c.bootstrapSamples} resamples). Grading errors count as R = 0.`,
  ];
  const few = c.tasks.filter((t) => t.fewAttempts).length;
  if (few > 0)
    notes.push(
      `${few} task(s) have fewer than ${c.minAttempts} scored attempts and are not placed in the band.`,
    );
  const changed = c.tasks.filter((t) => t.versions > 1).map((t) => `${t.task} (${t.versions})`);
  if (changed.length > 0)
    notes.push(`Task(s) run in more than one version (different checksums), pooled: ${changed.join(", ")}.`);
  const sections: CalibrationSection[] = [
    {
      title: "Candidate tasks",
      header: [
        "rank",
        "task",
        "category",
        "models passing",
        "attempts passing",
        "mean R [95% CI]",
        "infra excl.",
        "band",
      ],
      rows: c.tasks.map((t) => [
        String(t.rank),
        t.task,
        t.category,
        `${t.modelsPassing}/${t.models}`,
        rateWithInterval(t.solveRate),
        estimate(t.meanReward),
        String(t.infraExcluded),
        bandCell(t, picked),
      ]),
      notes,
    },
  ];
  if (c.target !== null) {
    const t = c.target;
    const targetNotes = [
      `Quotas are proportional to each category's tasks in the band (largest remainder); within a category the tasks nearest the band's middle (solve rate ${Number(((c.band.low + c.band.high) / 2).toFixed(4))}) are picked.`,
    ];
    if (t.shortfall > 0)
      targetNotes.push(
        `The band holds ${t.picked.length} task(s), ${t.shortfall} fewer than the target of ${t.target}.`,
      );
    sections.push({
      title: `Target pick: ${t.picked.length} of ${t.target}`,
      header: ["category", "in band", "quota", "picked"],
      rows: t.categories.map((q) => [
        q.category,
        String(q.inBand),
        String(q.quota),
        q.picked.join(", ") || DASH,
      ]),
      notes: targetNotes,
    });
  }
  return sections;
}
