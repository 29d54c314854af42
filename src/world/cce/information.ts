import type { JsonValue } from "../model/types.js";
import type { ActionRecord, RunLog } from "./log.js";

/**
 * Information flow through chat: which message, if any, an agent first learned each thing it used
 * from. A "thing" is a token: an id-like word (an entity, item, place or agent name, `[a-z][a-z0-9_]*`)
 * or a coordinate pair `x,y`. A call uses the string values of its arguments and the `x,y` of an
 * argument object with numeric `x` and `y`; a chat call uses the tokens of its text (so a relayed
 * message traces back to the one it relays).
 */
export class InformationIndex {
  /** Per recipient: the messages it received (chat action seqs) with their tokens, oldest first. */
  private readonly inbox = new Map<string, Array<{ seq: number; tokens: Set<string> }>>();
  /** Per agent: tokens it used itself, with the first call that used each. */
  private readonly firstUse = new Map<string, Map<string, number>>();
  private readonly prior = new Map<string, Set<string>>();

  constructor(log: RunLog, prior: Readonly<Record<string, string>>, team: Readonly<Record<string, string>>) {
    for (const [agent, text] of Object.entries(prior)) this.prior.set(agent, textTokens(text));
    const agents = [...new Set(log.actions.map((a) => a.agent))];
    for (const a of log.actions) {
      const uses = this.firstUse.get(a.agent) ?? new Map<string, number>();
      for (const t of callTokens(a)) if (!uses.has(t)) uses.set(t, a.seq);
      this.firstUse.set(a.agent, uses);
      if (a.tool !== "chat" || !a.ok) continue;
      const to = argString(a.args, "to");
      const tokens = textTokens(argString(a.args, "message") ?? "");
      const teamOf = (id: string): string => team[id] ?? "";
      const recipients =
        to !== null ? [to] : agents.filter((x) => x !== a.agent && teamOf(x) === teamOf(a.agent));
      for (const r of recipients) {
        const box = this.inbox.get(r) ?? [];
        box.push({ seq: a.seq, tokens });
        this.inbox.set(r, box);
      }
    }
  }

  /**
   * The messages call `a` depends on: for each token it uses, the first message to its agent that
   * carried it, when that message came before the call, the agent did not know the token before
   * the run, and had not used it in a call of its own before the message arrived.
   */
  sources(a: ActionRecord): number[] {
    const out = new Set<number>();
    const box = this.inbox.get(a.agent) ?? [];
    const prior = this.prior.get(a.agent);
    const uses = this.firstUse.get(a.agent);
    for (const t of callTokens(a)) {
      if (prior?.has(t)) continue;
      const first = box.find((m) => m.tokens.has(t));
      if (first === undefined || first.seq >= a.seq) continue;
      const own = uses?.get(t);
      if (own !== undefined && own < first.seq) continue;
      out.add(first.seq);
    }
    return [...out];
  }
}

const WORD = /[a-z][a-z0-9_]*/g;
const PAIR = /(\d+)\s*[,;]\s*(\d+)/g;

/** Id-like words and `x,y` pairs of a text. */
export function textTokens(text: string): Set<string> {
  const lower = text.toLowerCase();
  const out = new Set<string>(lower.match(WORD) ?? []);
  for (const m of lower.matchAll(PAIR)) out.add(`${m[1]},${m[2]}`);
  return out;
}

/** The tokens a call uses (see the class comment). */
export function callTokens(a: ActionRecord): Set<string> {
  if (a.tool === "chat") return textTokens(argString(a.args, "message") ?? "");
  const out = new Set<string>();
  const walk = (v: JsonValue, key: string): void => {
    if (typeof v === "string") {
      if (key !== "summary") out.add(v.toLowerCase());
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v !== null && typeof v === "object") {
      if (typeof v.x === "number" && typeof v.y === "number") out.add(`${v.x},${v.y}`);
      for (const [k, x] of Object.entries(v)) walk(x, k);
    }
  };
  walk(a.args, "");
  return out;
}

function argString(args: JsonValue, key: string): string | null {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return null;
  const v = args[key];
  return typeof v === "string" ? v : null;
}
