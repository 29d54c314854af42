import type { Summary } from "../analysis/summary-types.js";
import type { Fraction } from "../analysis/world-cce.js";
import { DASH } from "./format.js";
import type { Section } from "./sections.js";

/** "0.457 (21/46)": a ratio always with its whole-number parts; a dash over nothing. */
export function fractionCell(f: Fraction | null): string {
  if (f === null || f.value === null) return f === null ? DASH : `${DASH} (0/0)`;
  return `${f.value.toFixed(3)} (${f.num}/${f.den})`;
}

function meanCell(m: { sum: number; n: number; value: number | null }): string {
  return m.value === null ? `${DASH} (n=0)` : `${m.value.toFixed(3)} (Σ ${m.sum.toFixed(2)}/${m.n})`;
}

/** Causal contribution per agent × model: macro, success-conditional and pooled CCE, PAC, counterfactual. */
export function worldCceSection(s: Summary): Section | null {
  const c = s.worldCce;
  if (c === undefined || c.groups.length === 0) return null;
  const f3 = (v: number | null): string => (v === null ? DASH : v.toFixed(2));
  return {
    title: "World tasks: causal contribution (CCE, PAC)",
    header: [
      "agent / model",
      "successes",
      "macro CCE",
      "success-conditional CCE",
      "pooled CCE",
      "PAC min / median / max (n, zero)",
      "closure necessary",
      "outside breaks",
    ],
    rows: c.groups.map((g) => [
      g.label,
      `${g.successes}/${g.tasks}`,
      meanCell(g.macro),
      meanCell(g.successConditional),
      fractionCell(g.pooled),
      `${f3(g.pac.min)} / ${f3(g.pac.median)} / ${f3(g.pac.max)} (${g.pac.n}, ${g.pac.zero})`,
      fractionCell(g.necessity),
      fractionCell(g.outsideBreaks),
    ]),
    notes: [
      "CCE = calls in the exact backward closure of the success witnesses / all calls (waits included); a failed trial has CCE 0 (macro counts it as 0; success-conditional leaves it out); pooled = Σ closure calls / Σ calls",
      "PAC = an agent's closure calls / its calls, over the agents of successful trials; closure necessary = sampled closure calls whose replacement by wait lost success / sampled; outside breaks = the same for sampled calls outside the closure (see docs/world.md, Causal contribution)",
    ],
  };
}

/** Causal contribution trial by trial: CCE with and without waits, each agent's PAC and share of calls. */
export function worldCceTrialSection(s: Summary): Section | null {
  const c = s.worldCce;
  if (c === undefined || c.trials.length === 0) return null;
  return {
    title: "World tasks: causal contribution per trial",
    header: [
      "agent / model",
      "task",
      "attempt",
      "success",
      "CCE",
      "CCE without waits",
      "PAC per agent",
      "share of calls",
      "necessary",
      "outside breaks",
    ],
    rows: c.trials.map((t) => [
      t.label,
      t.task,
      String(t.attempt),
      t.success ? "yes" : "no",
      fractionCell(t.cce),
      fractionCell(t.cceActive),
      t.agents.map((a) => `${a.id} ${fractionCell(a.pac)}`).join(" · "),
      t.agents.map((a) => `${a.id} ${a.share.num}/${a.share.den}`).join(" · "),
      fractionCell(t.necessity),
      fractionCell(t.outsideBreaks),
    ]),
    notes: [],
  };
}
