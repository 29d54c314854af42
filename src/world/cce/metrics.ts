import type { WorldCce } from "../../core/index.js";
import type { Closure } from "./closure.js";
import type { RunLog } from "./log.js";

/**
 * CCE and PAC from a closure: CCE = |closure| / |calls|, PAC_i = |closure ∩ calls of i| / |calls
 * of i|. Every call counts in the denominators, `wait` included (a turn spent waiting is a turn);
 * `cce_active` leaves waits out. `agents` lists the run's agents in order (an agent with no call
 * gets PAC null).
 */
export function cceMetrics(
  log: RunLog,
  closure: Closure,
  agents: readonly string[],
  traceMs: number,
): Omit<WorldCce, "counterfactual"> {
  const actions = log.actions.length;
  const waits = log.actions.filter((a) => a.tool === "wait").length;
  const inClosure = log.actions.filter((a) => closure.members.has(a.seq));
  const contributing = inClosure.length;
  const reasons: Record<string, number> = {};
  for (const why of closure.members.values()) reasons[why] = (reasons[why] ?? 0) + 1;
  const indexOf = (seq: number): number[] => {
    const a = log.bySeq.get(seq);
    return a === undefined ? [] : [a.index];
  };
  return {
    actions,
    waits,
    contributing,
    cce: ratio(contributing, actions),
    cce_active: ratio(contributing, actions - waits),
    witnesses: closure.witnesses.flatMap(indexOf),
    closure: inClosure.map((a) => a.index),
    reasons,
    agents: agents.map((id) => {
      const mine = log.actions.filter((a) => a.agent === id);
      const c = inClosure.filter((a) => a.agent === id).length;
      return {
        id,
        actions: mine.length,
        waits: mine.filter((a) => a.tool === "wait").length,
        contributing: c,
        pac: mine.length === 0 ? null : c / mine.length,
        share: ratio(mine.length, actions),
      };
    }),
    trace_ms: traceMs,
  };
}

function ratio(n: number, d: number): number {
  return d === 0 ? 0 : n / d;
}
