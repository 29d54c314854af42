import { CHAT_ERROR_TYPES, type ChatErrorType, type WorldChat } from "../../core/index.js";

/** A message the rules left unchecked, as a labeller sees it. */
export interface UncheckedMessage {
  call: number;
  round: number;
  agent: string;
  to: string | null;
  text: string;
  /** The messages before it (sender, addressee, text), oldest first. */
  earlier: ReadonlyArray<{ agent: string; to: string | null; text: string }>;
}

/** What a labeller says of one message: an error type or ok, with a reason. */
export interface ModelLabel {
  label: ChatErrorType | "ok";
  reason: string;
}

/**
 * Labels messages no rule could judge (e.g. a model asked with the type definitions of
 * docs/world.md). Returns one label per message, in order; null leaves a message unchecked.
 */
export interface ChatLabeller {
  label(messages: readonly UncheckedMessage[]): Promise<ReadonlyArray<ModelLabel | null>>;
}

/**
 * The chat analysis with its unchecked messages labelled by `labeller` (marked `by: "model"`);
 * rule labels are kept. `texts[i]` is the text of run call i (the run file's chat messages).
 */
export async function labelUnchecked(
  chat: WorldChat,
  texts: ReadonlyMap<number, string>,
  labeller: ChatLabeller,
): Promise<WorldChat> {
  const all = chat.items.map((m) => ({ agent: m.agent, to: m.to, text: texts.get(m.call) ?? "" }));
  const open = chat.items.flatMap((m, i) =>
    m.label === "unchecked"
      ? [
          {
            i,
            msg: {
              call: m.call,
              round: m.round,
              agent: m.agent,
              to: m.to,
              text: all[i]?.text ?? "",
              earlier: all.slice(0, i),
            },
          },
        ]
      : [],
  );
  if (open.length === 0) return chat;
  const labels = await labeller.label(open.map((o) => o.msg));
  const items = chat.items.map((m) => ({ ...m }));
  open.forEach((o, k) => {
    const l = labels[k];
    const item = items[o.i];
    if (l === null || l === undefined || item === undefined) return;
    item.label = l.label;
    item.types = l.label === "ok" ? [] : [l.label];
    item.reason = l.reason;
    item.by = "model";
  });
  const count = (ms: typeof items) => {
    const out: Record<string, number> = Object.fromEntries(Object.keys(chat.labels).map((k) => [k, 0]));
    for (const m of ms) out[m.label] = (out[m.label] ?? 0) + 1;
    return out;
  };
  return {
    ...chat,
    items,
    labels: count(items),
    agents: chat.agents.map((a) => ({ ...a, labels: count(items.filter((m) => m.agent === a.id)) })),
  };
}

export const MODEL_LABELS: ReadonlyArray<ChatErrorType | "ok"> = [...CHAT_ERROR_TYPES, "ok"];
