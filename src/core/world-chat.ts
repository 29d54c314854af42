import { z } from "zod";

/**
 * The communication error types of a world chat message (docs/world.md, "Chat analysis"), then
 * `ok` (every line was checked and no rule fired) and `unchecked` (no rule could judge a line).
 */
export const CHAT_ERROR_TYPES = [
  "wrong_target",
  "premature_completion",
  "factual_error",
  "stale",
  "logical_inconsistency",
  "duplicate",
  "empty_talk",
] as const;
export type ChatErrorType = (typeof CHAT_ERROR_TYPES)[number];
export const CHAT_LABELS = [...CHAT_ERROR_TYPES, "ok", "unchecked"] as const;
export type ChatLabel = (typeof CHAT_LABELS)[number];

const count = z.number().int().nonnegative();
const labelCounts = z.record(z.string(), count);

/** One chat call of a run, labelled. `types` lists every rule that fired, `label` the first by precedence. */
export const chatMessageSchema = z.object({
  /** Index into the run file's `calls`. */
  call: count,
  round: count,
  agent: z.string(),
  /** The addressee of a direct message; null: the whole team. */
  to: z.string().nullable(),
  /** Whether the engine accepted the call (a message to an unknown agent or under no-comm is refused). */
  delivered: z.boolean(),
  label: z.enum(CHAT_LABELS),
  types: z.array(z.enum(CHAT_ERROR_TYPES)),
  /** Why: the first rule's finding, or which lines no rule could judge. */
  reason: z.string(),
  /** Who labelled it: the rules, or a model labeller for a message the rules left unchecked. */
  by: z.enum(["rules", "model"]).default("rules"),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

/** A `complete` call, checked against the goal predicates naming its agent at that moment. */
export const chatCompletionSchema = z.object({
  call: count,
  round: count,
  agent: z.string(),
  /** true: a predicate naming the agent did not hold; null: no predicate names the agent. */
  premature: z.boolean().nullable(),
  reason: z.string(),
});

/** A world trial's chat: counts per agent and round, and each message's label. */
export const worldChatSchema = z.object({
  /** Chat calls (refused ones included), how many the engine accepted, and how many went to the team / one agent. */
  messages: count,
  delivered: count,
  team: count,
  direct: count,
  /** Chat calls per round (index = round). */
  per_round: z.array(count),
  /** Messages per label (every label present). */
  labels: labelCounts,
  agents: z.array(
    z.object({
      id: z.string(),
      messages: count,
      team: count,
      direct: count,
      /** The round of the agent's first chat call; null when it never chatted. */
      first_round: count.nullable(),
      /** Chat calls per round, only rounds with one. */
      per_round: z.record(z.string(), count),
      labels: labelCounts,
    }),
  ),
  items: z.array(chatMessageSchema),
  completions: z.array(chatCompletionSchema),
  /** Milliseconds to replay the run and label its messages. */
  analyze_ms: z.number().nonnegative(),
});
export type WorldChat = z.infer<typeof worldChatSchema>;
