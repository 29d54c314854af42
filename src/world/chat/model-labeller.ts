import { z } from "zod";
import { CHAT_ERROR_TYPES } from "../../core/index.js";
import { ModelClient, settingsFromOptions } from "../../models/index.js";
import type { ChatLabeller, ModelLabel, UncheckedMessage } from "./labeller.js";

/** The type definitions a model labels by (docs/world.md, "Chat analysis"). */
const DEFINITIONS = `Label each game-team chat message with exactly one of:
- wrong_target: addressed to someone who cannot act on it (wrong role, offline, not a teammate)
- premature_completion: says something is done or delivered before it is
- factual_error: states something false about the world
- stale: states something that was true earlier but no longer is
- logical_inconsistency: contradicts the sender's own earlier messages
- duplicate: repeats information the recipients already have
- empty_talk: carries no information (no id, item, place, number or request)
- ok: none of these`;

const answerSchema = z.array(
  z.object({ call: z.number().int(), label: z.enum([...CHAT_ERROR_TYPES, "ok"]), reason: z.string() }),
);

/**
 * A labeller that asks a model (any `provider:model` of src/models; `options` as for a team, e.g.
 * `base_url`) to label the messages the rules left unchecked, all in one request. An answer that is
 * not the asked-for JSON, or leaves a message out, leaves that message unchecked.
 */
export function modelLabeller(model: string, options: Readonly<Record<string, string>> = {}): ChatLabeller {
  const client = new ModelClient(model, { settings: settingsFromOptions({ ...options }) });
  return {
    label: async (messages: readonly UncheckedMessage[]) => {
      const resp = await client.complete({
        system: `${DEFINITIONS}\n\nAnswer with only a JSON array of {"call": number, "label": string, "reason": string}, one per message.`,
        messages: [{ role: "user", content: JSON.stringify(messages.map(view)) }],
      });
      const labels = parseAnswer(resp.text);
      return messages.map((m) => labels.get(m.call) ?? null);
    },
  };
}

function view(m: UncheckedMessage): Record<string, unknown> {
  return {
    call: m.call,
    round: m.round,
    from: m.agent,
    to: m.to ?? "team",
    text: m.text,
    earlier: m.earlier.map((e) => `${e.agent} → ${e.to ?? "team"}: ${e.text}`),
  };
}

/** The labels of a model's answer by call index; empty when the answer holds no valid JSON array. */
export function parseAnswer(text: string): Map<number, ModelLabel> {
  const start = text.indexOf("[");
  const end = text.lastIndexOf("]");
  const out = new Map<number, ModelLabel>();
  if (start < 0 || end < start) return out;
  let raw: unknown;
  try {
    raw = JSON.parse(text.slice(start, end + 1));
  } catch {
    return out;
  }
  const parsed = answerSchema.safeParse(raw);
  if (!parsed.success) return out;
  for (const a of parsed.data) out.set(a.call, { label: a.label, reason: a.reason });
  return out;
}
