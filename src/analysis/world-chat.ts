import { CHAT_ERROR_TYPES, CHAT_LABELS, type ChatLabel } from "../core/world-chat.js";
import type { AnalysisTrial } from "./summary-types.js";

/** One world trial's chat. */
export interface WorldChatTrialRow {
  label: string;
  task: string;
  attempt: number;
  messages: number;
  team: number;
  direct: number;
  labels: Record<ChatLabel, number>;
  /** Each agent's message count and first-chat round (null: never chatted). */
  agents: { id: string; messages: number; firstRound: number | null }[];
  /** `complete` calls checked against their agent's predicates, and how many were premature. */
  completions: { checked: number; premature: number };
}

/** Chat aggregated over one agent × model's analysed world trials. */
export interface WorldChatGroupRow {
  label: string;
  trials: number;
  messages: number;
  team: number;
  direct: number;
  labels: Record<ChatLabel, number>;
  /** Messages the rules judged (every label but unchecked), and those judged an error. */
  judged: number;
  errors: number;
  /** Median first-chat round over (trial, agent) pairs that chatted; how many pairs chatted of all. */
  firstRound: { median: number | null; chatted: number; agents: number };
  completions: { checked: number; premature: number };
}

export interface WorldChatSummary {
  groups: WorldChatGroupRow[];
  trials: WorldChatTrialRow[];
}

const ERRORS: ReadonlySet<string> = new Set(CHAT_ERROR_TYPES);

function zero(): Record<ChatLabel, number> {
  return Object.fromEntries(CHAT_LABELS.map((l) => [l, 0])) as Record<ChatLabel, number>;
}

/**
 * Chat counts and error labels of world trials that were analysed (result.json `world.chat`);
 * null when none was. Infrastructure failures are left out, as everywhere; trials under different
 * modifiers are different conditions (never pooled). docs/world.md, "Chat analysis".
 */
export function worldChatSummary(trials: readonly AnalysisTrial[]): WorldChatSummary | null {
  const done = trials.filter((t) => t.world?.chat !== undefined && t.outcome !== "infra_error");
  if (done.length === 0) return null;
  const labelOf = (t: AnalysisTrial): string => {
    const team = t.model === null ? t.agent : `${t.agent} / ${t.model}`;
    const mods = t.world?.modifiers ?? [];
    return mods.length === 0 ? team : `${team} [${mods.join(", ")}]`;
  };
  const rows: WorldChatTrialRow[] = done.map((t) => {
    const c = t.world?.chat;
    if (c === undefined) throw new Error("unreachable: filtered above");
    const labels = zero();
    for (const [k, v] of Object.entries(c.labels)) if (k in labels) labels[k as ChatLabel] = v;
    const checked = c.completions.filter((x) => x.premature !== null);
    return {
      label: labelOf(t),
      task: t.task.name,
      attempt: t.attempt,
      messages: c.messages,
      team: c.team,
      direct: c.direct,
      labels,
      agents: c.agents.map((a) => ({ id: a.id, messages: a.messages, firstRound: a.first_round })),
      completions: { checked: checked.length, premature: checked.filter((x) => x.premature === true).length },
    };
  });
  rows.sort((a, b) => cmp(a.label, b.label) || cmp(a.task, b.task) || a.attempt - b.attempt);
  const groups = [...new Set(rows.map((r) => r.label))].map((label) =>
    groupRow(
      label,
      rows.filter((r) => r.label === label),
    ),
  );
  return { groups, trials: rows };
}

function groupRow(label: string, rows: readonly WorldChatTrialRow[]): WorldChatGroupRow {
  const labels = zero();
  for (const r of rows) for (const l of CHAT_LABELS) labels[l] += r.labels[l];
  const sum = (f: (r: WorldChatTrialRow) => number): number => rows.reduce((s, r) => s + f(r), 0);
  const pairs = rows.flatMap((r) => r.agents);
  const firsts = pairs
    .map((a) => a.firstRound)
    .filter((v): v is number => v !== null)
    .sort((a, b) => a - b);
  const messages = sum((r) => r.messages);
  return {
    label,
    trials: rows.length,
    messages,
    team: sum((r) => r.team),
    direct: sum((r) => r.direct),
    labels,
    judged: messages - labels.unchecked,
    errors: CHAT_LABELS.filter((l) => ERRORS.has(l)).reduce((s, l) => s + labels[l], 0),
    firstRound: { median: median(firsts), chatted: firsts.length, agents: pairs.length },
    completions: {
      checked: sum((r) => r.completions.checked),
      premature: sum((r) => r.completions.premature),
    },
  };
}

function median(xs: readonly number[]): number | null {
  if (xs.length === 0) return null;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 === 1 ? (xs[mid] ?? null) : ((xs[mid - 1] ?? 0) + (xs[mid] ?? 0)) / 2;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
