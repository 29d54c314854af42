import { CHAT_ERROR_TYPES, type ChatErrorType, type ChatLabel } from "../../core/index.js";
import type { WorldState } from "../model/types.js";
import { held } from "../task/predicates.js";
import { canDo } from "./abilities.js";
import {
  agentIn,
  agentPredicates,
  type Check,
  checkHolds,
  checkPosition,
  checkPredicates,
  goalPredicate,
  handedOver,
  isStatic,
  POSITION_TOLERANCE,
} from "./facts.js";
import { type ChatLine, informative, parseChat } from "./lines.js";
import type { ChatTimeline } from "./timeline.js";

/** One chat call to label: the call's index in the timeline, its addressee and text. */
export interface ChatCall {
  index: number;
  agent: string;
  to: string | null;
  text: string;
  delivered: boolean;
}

export interface ChatVerdict {
  label: ChatLabel;
  types: ChatErrorType[];
  reason: string;
}

interface Said {
  line: ChatLine;
  state: WorldState;
}

/** What the rules remember between messages: who has heard what, and what each sender said. */
export class ChatMemory {
  readonly heard = new Map<string, Set<string>>();
  readonly said = new Map<string, Said[]>();

  knows(agent: string): Set<string> {
    let s = this.heard.get(agent);
    if (s === undefined) {
      s = new Set();
      this.heard.set(agent, s);
    }
    return s;
  }
}

type Finding = { type: ChatErrorType; reason: string } | { type: "checked" } | { type: "unchecked" };

/**
 * Labels one message against the state its sender saw (the timeline's state before the call)
 * and what was said before it; updates `memory` with it. Call in the order of the run.
 */
export function classifyMessage(tl: ChatTimeline, call: ChatCall, memory: ChatMemory): ChatVerdict {
  const state = tl.before[call.index];
  if (state === undefined) throw new Error(`no call ${call.index} in the timeline`);
  const lines = parseChat(call.text, call.agent);
  const findings: Finding[] = [];
  const target = targetProblem(state, call);
  if (target !== null) findings.push({ type: "wrong_target", reason: target });
  const world = tl.world;
  const known = (t: string): boolean =>
    world.item.has(t) ||
    world.npc.has(t) ||
    world.mob.has(t) ||
    world.resource.has(t) ||
    agentIn(state, t) !== undefined;
  const says = informative(call.text, known);
  if (!says) findings.push({ type: "empty_talk", reason: "no id, item, number, coordinate or request" });
  const mine = memory.said.get(call.agent) ?? [];
  const perLine = lines.map(({ line }) => {
    const f = checkLine(tl, call, state, line, mine);
    return Array.isArray(f) ? f : [f];
  });
  findings.push(...perLine.flat());
  // Duplicate: every line was already heard (or said) by every recipient.
  const recipients = recipientsOf(state, call);
  const keys = lines.map((l) => keyOf(l.line, l.text));
  if (
    says &&
    recipients.length > 0 &&
    keys.length > 0 &&
    recipients.every((r) => keys.every((k) => memory.knows(r).has(k)))
  )
    findings.push({ type: "duplicate", reason: `${recipients.join(", ")} already heard every line` });
  if (call.delivered)
    for (const r of [...recipients, call.agent]) for (const k of keys) memory.knows(r).add(k);
  memory.said.set(call.agent, [...mine, ...lines.map((l) => ({ line: l.line, state }))]);
  const errors = findings.filter(
    (f): f is { type: ChatErrorType; reason: string } => f.type !== "checked" && f.type !== "unchecked",
  );
  const types = CHAT_ERROR_TYPES.filter((t) => errors.some((e) => e.type === t));
  const first = errors.find((e) => e.type === types[0]);
  if (first !== undefined) return { label: first.type, types, reason: first.reason };
  const open = lines.filter((_, i) => perLine[i]?.some((f) => f.type === "unchecked"));
  if (open.length > 0 || lines.length === 0)
    return {
      label: "unchecked",
      types: [],
      reason: `no rule reads: ${open.map((l) => `"${l.text}"`).join(", ")}`,
    };
  return { label: "ok", types: [], reason: "every line checked" };
}

/** A direct message to no agent, to oneself or another team, or to an agent that has completed. */
function targetProblem(state: WorldState, call: ChatCall): string | null {
  if (call.to === null) return null;
  const to = agentIn(state, call.to);
  const me = agentIn(state, call.agent);
  if (to === undefined) return `no agent "${call.to}"`;
  if (to.id === call.agent || to.team !== me?.team) return `${call.to} is not a teammate`;
  if (to.completed !== null) return `${call.to} is offline (completed at tick ${to.completed.tick})`;
  return null;
}

/** Who receives the message: the addressee, or every teammate still playing. */
function recipientsOf(state: WorldState, call: ChatCall): string[] {
  if (call.to !== null) return agentIn(state, call.to) === undefined ? [] : [call.to];
  const me = agentIn(state, call.agent);
  return state.agents
    .toArray()
    .filter((a) => a.id !== call.agent && a.team === me?.team && a.completed === null)
    .map((a) => a.id);
}

/** The information a line carries, for the duplicate check: the claim itself, or its text. */
function keyOf(line: ChatLine, text: string): string {
  if (line.kind === "position") return `at ${line.entity} ${line.x},${line.y}`;
  if (line.kind === "holds") return `holds ${line.agent} ${line.qty} ${line.item}`;
  return text;
}

function checkLine(
  tl: ChatTimeline,
  call: ChatCall,
  state: WorldState,
  line: ChatLine,
  mine: readonly Said[],
): Finding | Finding[] {
  const world = tl.world;
  switch (line.kind) {
    case "position": {
      const c = checkPosition(world, state, line.entity, line.x, line.y);
      const fact =
        c === null
          ? { type: "unchecked" as const }
          : c.holds
            ? { type: "checked" as const }
            : falseFact(tl, call, c, (s) => checkPosition(world, s, line.entity, line.x, line.y));
      // A thing that does not move (or one the world does not know) has one place: saying another
      // one than before contradicts oneself. A correction to a true place does not.
      const before = mine.find(
        (s) =>
          s.line.kind === "position" &&
          s.line.entity === line.entity &&
          Math.max(Math.abs(s.line.x - line.x), Math.abs(s.line.y - line.y)) > POSITION_TOLERANCE,
      );
      const contradicts = c === null || (isStatic(world, line.entity) && !c.holds);
      if (before?.line.kind !== "position" || !contradicts) return [fact];
      const reason = `${call.agent} said ${line.entity} at (${before.line.x},${before.line.y}) before`;
      return [fact, { type: "logical_inconsistency", reason }];
    }
    case "holds": {
      const c = checkHolds(world, state, line.agent, line.item, line.qty);
      if (c === null) return [{ type: "unchecked" }];
      if (c.holds) return [{ type: "checked" }];
      const fact = falseFact(tl, call, c, (s) => checkHolds(world, s, line.agent, line.item, line.qty));
      // Another count than the sender's own earlier one, though the holding has not changed since.
      const now = held(state, line.item, [line.agent]);
      const before = mine.find(
        (s) =>
          s.line.kind === "holds" &&
          s.line.agent === line.agent &&
          s.line.item === line.item &&
          s.line.qty !== line.qty &&
          held(s.state, line.item, [line.agent]) === now,
      );
      if (before?.line.kind !== "holds") return [fact];
      const reason = `${call.agent} said ${line.agent} has ${before.line.qty} ${line.item} before, with the same holding`;
      return [fact, { type: "logical_inconsistency", reason }];
    }
    case "gave":
    case "delivered": {
      const n = handedOver(tl.events, state.seq, call.agent, line.to, line.item);
      if (n >= line.qty) return { type: "checked" };
      const reason = `${call.agent} has handed ${n} ${line.item} to ${line.to}`;
      return { type: line.kind === "gave" ? "factual_error" : "premature_completion", reason };
    }
    case "done":
    case "done_all": {
      if (tl.spec === null) return { type: "unchecked" };
      const pred = line.kind === "done" ? goalPredicate(line.key, call.agent) : null;
      const preds =
        line.kind === "done" ? (pred === null ? [] : [pred]) : agentPredicates(tl.spec, call.agent);
      if (preds.length === 0) return { type: "unchecked" };
      const c = checkPredicates(tl.spec, world, state, tl.events, preds);
      return c.holds ? { type: "checked" } : { type: "premature_completion", reason: c.detail };
    }
    case "take": {
      const done = mine.some((s) => s.line.kind === "done" && s.line.key === line.key);
      if (done)
        return { type: "logical_inconsistency", reason: `${call.agent} said "done ${line.key}" before` };
      return { type: "checked" };
    }
    case "need":
      return { type: world.item.has(line.item) ? "checked" : "unchecked" };
    case "where":
      return {
        type: checkPosition(world, state, line.entity, 0, 0) === null ? "unchecked" : "checked",
      };
    case "request":
      return checkRequest(tl, call, state, line);
    case "other":
      return { type: "unchecked" };
  }
}

/** A false fact is stale when it held in an earlier state of the run, else a factual error. */
function falseFact(
  tl: ChatTimeline,
  call: ChatCall,
  now: Check,
  at: (s: WorldState) => Check | null,
): Finding {
  for (let j = call.index - 1; j >= 0; j--) {
    const s = tl.before[j];
    if (s !== undefined && at(s)?.holds === true)
      return {
        type: "stale",
        reason: `true at tick ${s.tick}, not at tick ${tl.before[call.index]?.tick}: ${now.detail}`,
      };
  }
  return { type: "factual_error", reason: now.detail };
}

/** "craft X" / "gather X" asked of the addressee (or of the team: of anyone still playing). */
function checkRequest(
  tl: ChatTimeline,
  call: ChatCall,
  state: WorldState,
  line: Extract<ChatLine, { kind: "request" }>,
): Finding {
  const ids = call.to === null ? recipientsOf(state, call) : [call.to];
  const able = ids.map((id) => {
    const a = agentIn(state, id);
    return a === undefined ? false : canDo(tl.world, a, line.verb, line.item);
  });
  if (able.some((x) => x === null)) return { type: "unchecked" };
  if (able.some((x) => x === true) || ids.length === 0) return { type: "checked" };
  return {
    type: "wrong_target",
    reason: `${call.to ?? "no teammate"} cannot ${line.verb} ${line.item} (skill, level or tool missing)`,
  };
}
