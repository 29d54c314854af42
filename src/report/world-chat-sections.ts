import type { Summary } from "../analysis/summary-types.js";
import { CHAT_ERROR_TYPES } from "../core/world-chat.js";
import { DASH } from "./format.js";
import type { Section } from "./sections.js";

const share = (n: number, d: number): string =>
  d === 0 ? `${DASH} (0/0)` : `${(n / d).toFixed(3)} (${n}/${d})`;

/** Chat per agent × model: messages, team vs direct, first-chat round, and messages per error type. */
export function worldChatSection(s: Summary): Section | null {
  const c = s.worldChat;
  if (c === undefined || c.groups.length === 0) return null;
  return {
    title: "World tasks: chat analysis",
    header: [
      "agent / model",
      "trials",
      "messages",
      "team / direct",
      "first chat round (median; agents chatted)",
      "judged",
      "errors / judged",
      ...CHAT_ERROR_TYPES.map((t) => t.replace(/_/g, " ")),
      "premature complete",
    ],
    rows: c.groups.map((g) => [
      g.label,
      String(g.trials),
      String(g.messages),
      `${g.team} / ${g.direct}`,
      `${g.firstRound.median === null ? DASH : String(g.firstRound.median)} (${g.firstRound.chatted}/${g.firstRound.agents})`,
      share(g.judged, g.messages),
      share(g.errors, g.judged),
      ...CHAT_ERROR_TYPES.map((t) => String(g.labels[t])),
      `${g.completions.premature}/${g.completions.checked}`,
    ]),
    notes: [
      "each message gets one label: the first error type that a rule finds (in the column order), else ok when every line was checked, else unchecked; judged = messages not unchecked",
      "premature complete = complete calls made while a success or checkpoint predicate naming the agent did not hold / complete calls of agents some predicate names (see docs/world.md, Chat analysis)",
    ],
  };
}

/** Chat trial by trial: counts, labels and each agent's first-chat round. */
export function worldChatTrialSection(s: Summary): Section | null {
  const c = s.worldChat;
  if (c === undefined || c.trials.length === 0) return null;
  return {
    title: "World tasks: chat per trial",
    header: ["agent / model", "task", "attempt", "messages", "team / direct", "labels", "first chat round"],
    rows: c.trials.map((t) => [
      t.label,
      t.task,
      String(t.attempt),
      String(t.messages),
      `${t.team} / ${t.direct}`,
      Object.entries(t.labels)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${k} ${n}`)
        .join(", ") || DASH,
      t.agents.map((a) => `${a.id} ${a.firstRound ?? DASH}`).join(" · "),
    ]),
    notes: [],
  };
}
