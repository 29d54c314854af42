import { CHAT_LABELS, type ChatLabel, type WorldChat } from "../../core/index.js";
import type { World } from "../build/world.js";
import type { RunFile } from "../engine/session.js";
import { type ChatCall, ChatMemory, classifyMessage } from "./classify.js";
import { agentPredicates, checkPredicates } from "./facts.js";
import { type ChatTimeline, chatTimeline } from "./timeline.js";

type Call = { tool?: unknown; args?: { message?: unknown; to?: unknown; summary?: unknown } };

function zeroLabels(): Record<ChatLabel, number> {
  return Object.fromEntries(CHAT_LABELS.map((l) => [l, 0])) as Record<ChatLabel, number>;
}

/** The chat calls of a timeline, in order. */
export function chatCalls(tl: ChatTimeline): ChatCall[] {
  return tl.calls.flatMap((c, index) => {
    const call = c.call as Call;
    if (call.tool !== "chat") return [];
    const text = typeof call.args?.message === "string" ? call.args.message : "";
    const to = typeof call.args?.to === "string" ? call.args.to : null;
    return [{ index, agent: c.agent, to, text, delivered: tl.results[index]?.ok === true }];
  });
}

/** Labels every chat call of a replayed run and counts them per agent and round. */
export function analyzeTimeline(tl: ChatTimeline, t0 = performance.now()): WorldChat {
  const memory = new ChatMemory();
  const calls = chatCalls(tl);
  const items: WorldChat["items"] = calls.map((c) => {
    const v = classifyMessage(tl, c, memory);
    return {
      call: c.index,
      round: tl.calls[c.index]?.round ?? 0,
      agent: c.agent,
      to: c.to,
      delivered: c.delivered,
      label: v.label,
      types: v.types,
      reason: v.reason,
      by: "rules" as const,
    };
  });
  const rounds = Math.max(0, ...tl.calls.map((c) => c.round + 1));
  const perRound = Array.from({ length: rounds }, () => 0);
  for (const m of items) perRound[m.round] = (perRound[m.round] ?? 0) + 1;
  const ids = [...new Set(tl.before[0]?.agents.toArray().map((a) => a.id) ?? tl.calls.map((c) => c.agent))];
  const agents = ids.map((id) => {
    const own = items.filter((m) => m.agent === id);
    const labels = zeroLabels();
    const per: Record<string, number> = {};
    for (const m of own) {
      labels[m.label]++;
      per[String(m.round)] = (per[String(m.round)] ?? 0) + 1;
    }
    return {
      id,
      messages: own.length,
      team: own.filter((m) => m.to === null).length,
      direct: own.filter((m) => m.to !== null).length,
      first_round: own[0]?.round ?? null,
      per_round: per,
      labels,
    };
  });
  const labels = zeroLabels();
  for (const m of items) labels[m.label]++;
  return {
    messages: items.length,
    delivered: items.filter((m) => m.delivered).length,
    team: items.filter((m) => m.to === null).length,
    direct: items.filter((m) => m.to !== null).length,
    per_round: perRound,
    labels,
    agents,
    items,
    completions: completions(tl),
    analyze_ms: performance.now() - t0,
  };
}

/** Each `complete` call against the goal predicates naming its agent, at that moment. */
function completions(tl: ChatTimeline): WorldChat["completions"] {
  return tl.calls.flatMap((c, index): WorldChat["completions"] => {
    if ((c.call as Call).tool !== "complete") return [];
    const base = { call: index, round: c.round, agent: c.agent };
    const preds = tl.spec === null ? [] : agentPredicates(tl.spec, c.agent);
    const state = tl.before[index];
    if (tl.spec === null || preds.length === 0 || state === undefined)
      return [{ ...base, premature: null, reason: "no goal predicate names this agent" }];
    const check = checkPredicates(tl.spec, tl.world, state, tl.events, preds);
    return [{ ...base, premature: !check.holds, reason: check.detail }];
  });
}

/** Replays a run file and analyses its chat (docs/world.md, "Chat analysis"). */
export function worldChat(base: World, run: RunFile): WorldChat {
  const t0 = performance.now();
  return analyzeTimeline(chatTimeline(base, run), t0);
}
