import { isMap, parseDocument, type YAMLMap, YAMLSeq } from "yaml";
import { UserError } from "../../core/index.js";

/** One call a session recorded (`Session.calls`). */
export interface RecordedCall {
  round: number;
  agent: string;
  call: unknown;
}

/** A task's `reference`: per round, the calls in turn order. */
export type ReferenceRounds = { agent: string; call: { tool: string; args: Record<string, unknown> } }[][];

/**
 * A played session's calls as a task's `reference`. Waits are dropped (an agent not listed
 * waits) and so are chats: a chat changes no item, place or fight, so replaying the rest ends
 * in the same world (the caller checks it). Rounds without calls stay as `[]`, so the round
 * numbers match the play.
 */
export function referenceFromCalls(calls: readonly RecordedCall[]): ReferenceRounds {
  const rounds: ReferenceRounds = [];
  for (const c of calls) {
    const call = c.call as { tool?: unknown; args?: unknown };
    if (typeof call.tool !== "string" || call.tool === "wait" || call.tool === "chat") continue;
    while (rounds.length <= c.round) rounds.push([]);
    const args = (call.args ?? {}) as Record<string, unknown>;
    rounds[c.round]?.push({ agent: c.agent, call: { tool: call.tool, args } });
  }
  return rounds;
}

/**
 * The task file's text with its `reference` replaced (or added at the end): the comments and
 * every other key are kept as written. Each call is one flow-style line, as hand-written
 * references are.
 */
export function withReference(text: string, label: string, rounds: ReferenceRounds): string {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) throw new UserError(`${label}: ${doc.errors[0]?.message ?? "invalid YAML"}`);
  if (!isMap(doc.contents)) throw new UserError(`${label}: expected a mapping at the top`);
  const node = new YAMLSeq();
  for (const round of rounds) {
    const seq = new YAMLSeq();
    for (const c of round) {
      const entry = doc.createNode(c) as YAMLMap;
      entry.flow = true;
      seq.items.push(entry);
    }
    seq.flow = round.length === 0;
    node.items.push(seq);
  }
  doc.set("reference", node);
  return doc.toString({ lineWidth: 0 });
}
