import { z } from "zod";

/**
 * What a line of `longhaul export sft` must be, in each convention (docs/export.md), written from
 * the conventions themselves and not from the exporter: the tests parse every line with it.
 */
const jsonObjectText = z.string().refine((s) => {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === "object" && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}, "arguments must be a JSON object as a string");

function toolCall(format: "openai" | "hf") {
  return z.strictObject({
    id: z.string().min(1),
    type: z.literal("function"),
    function: z.strictObject({
      name: z.string().min(1),
      arguments: format === "openai" ? jsonObjectText : z.record(z.string(), z.unknown()),
    }),
  });
}

function message(format: "openai" | "hf") {
  const text = z.string();
  return z.discriminatedUnion("role", [
    z.strictObject({ role: z.literal("system"), content: text }),
    z.strictObject({ role: z.literal("user"), content: text }),
    z.strictObject({
      role: z.literal("assistant"),
      content: format === "openai" ? text.nullable() : text,
      tool_calls: z.array(toolCall(format)).min(1).optional(),
    }),
    format === "openai"
      ? z.strictObject({ role: z.literal("tool"), tool_call_id: z.string().min(1), content: text })
      : z.strictObject({
          role: z.literal("tool"),
          tool_call_id: z.string().min(1),
          name: z.string().min(1),
          content: text,
        }),
  ]);
}

type Msg = z.infer<ReturnType<typeof message>>;

/**
 * The order both conventions need: system messages first, then a user message before any
 * assistant turn; every tool call answered by exactly one tool message, right after its
 * assistant turn and in order, with ids unique in the conversation; no tool message otherwise.
 */
function checkOrder(msgs: readonly Msg[], ctx: z.RefinementCtx): void {
  const fail = (i: number, why: string): void => ctx.addIssue({ code: "custom", path: [i], message: why });
  const firstOther = msgs.findIndex((m) => m.role !== "system");
  msgs.forEach((m, i) => {
    if (m.role === "system" && i > firstOther && firstOther !== -1) fail(i, "system message after the start");
  });
  if (msgs[firstOther]?.role !== "user") fail(firstOther, "the first message after system is not user");
  if (!msgs.some((m) => m.role === "assistant")) fail(0, "no assistant message");
  const seen = new Set<string>();
  let i = 0;
  while (i < msgs.length) {
    const m = msgs[i];
    i++;
    if (m?.role === "tool") fail(i - 1, "tool message without a call before it");
    if (m?.role !== "assistant" || m.tool_calls === undefined) continue;
    for (const call of m.tool_calls) {
      if (seen.has(call.id)) fail(i - 1, `tool call id ${call.id} used twice`);
      seen.add(call.id);
      const answer = msgs[i];
      if (answer?.role !== "tool" || answer.tool_call_id !== call.id) {
        fail(i, `call ${call.id} is not answered by the next message`);
        continue;
      }
      if ("name" in answer && answer.name !== call.function.name) fail(i, "tool name differs from its call");
      i++;
    }
  }
}

const metadataSchema = z.strictObject({
  job_id: z.string().min(1),
  trial_id: z.string().min(1),
  task: z.string().min(1),
  task_checksum: z.string().regex(/^[0-9a-f]{64}$/),
  agent: z.string().min(1),
  model: z.string().nullable(),
  attempt: z.number().int().nonnegative(),
  seed: z.number().int().nonnegative(),
  outcome: z.enum(["completed", "agent_timeout", "agent_error"]),
  reward: z.number().min(0).max(1),
  passed: z.boolean(),
  lineage_depth: z.number().int().nonnegative().nullable(),
  assistant_turns: z.number().int().positive(),
  tool_calls: z.number().int().nonnegative(),
});

export function sftRecordSchema(format: "openai" | "hf") {
  return z
    .strictObject({
      messages: z.array(message(format)).min(2).superRefine(checkOrder),
      metadata: metadataSchema,
    })
    .superRefine((r, ctx) => {
      const assistants = r.messages.filter((m) => m.role === "assistant");
      const calls = assistants.reduce(
        (n, m) => n + (m.role === "assistant" ? (m.tool_calls?.length ?? 0) : 0),
        0,
      );
      if (assistants.length !== r.metadata.assistant_turns)
        ctx.addIssue({ code: "custom", message: "assistant_turns" });
      if (calls !== r.metadata.tool_calls) ctx.addIssue({ code: "custom", message: "tool_calls" });
      if (r.metadata.passed !== r.metadata.reward >= 0.95 - 1e-9)
        ctx.addIssue({ code: "custom", message: "passed" });
    });
}
export type ParsedSftRecord = z.infer<ReturnType<typeof sftRecordSchema>>;

/** Every line of an export, parsed; a line that breaks the convention fails with its number. */
export function parseSftFile(text: string, format: "openai" | "hf"): ParsedSftRecord[] {
  if (text !== "" && !text.endsWith("\n")) throw new Error("the file does not end with a newline");
  const schema = sftRecordSchema(format);
  return text
    .split("\n")
    .slice(0, -1)
    .map((line, i) => {
      const r = schema.safeParse(JSON.parse(line));
      if (!r.success) throw new Error(`line ${i + 1}: ${JSON.stringify(r.error.issues.slice(0, 3))}`);
      return r.data;
    });
}
