import { z } from "zod";

/** The one JSON object the terminal harness expects from the model each turn. */
export const terminusAnswerSchema = z.object({
  analysis: z.string().default(""),
  plan: z.string().default(""),
  commands: z
    .array(
      z.strictObject({
        keystrokes: z.string(),
        /** Seconds to wait after sending; the harness may return earlier once the prompt is back. */
        duration: z.number().nonnegative().default(1),
      }),
    )
    .default([]),
  task_complete: z.boolean().default(false),
});
export type TerminusAnswer = z.infer<typeof terminusAnswerSchema>;

export type ParsedAnswer = { ok: true; answer: TerminusAnswer } | { ok: false; error: string };

/** The first balanced `{…}` block in the text, skipping braces inside JSON strings. */
function firstObject(text: string): string | null {
  const start = text.indexOf("{");
  if (start < 0) return null;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return null;
}

/** Models wrap JSON in prose or code fences; accept that, but nothing that is not one valid object. */
export function parseTerminusAnswer(text: string): ParsedAnswer {
  const trimmed = text.trim();
  if (trimmed.length === 0) return { ok: false, error: "the answer was empty" };
  const candidate = firstObject(trimmed);
  if (candidate === null) return { ok: false, error: "no JSON object found in the answer" };
  let raw: unknown;
  try {
    raw = JSON.parse(candidate);
  } catch (e) {
    return { ok: false, error: `invalid JSON: ${(e as Error).message}` };
  }
  const r = terminusAnswerSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    return { ok: false, error: `field ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}` };
  }
  return { ok: true, answer: r.data };
}

export const ANSWER_FORMAT = `{
  "analysis": "what the terminal shows and what it means",
  "plan": "what you will do next and why",
  "commands": [{"keystrokes": "ls -la\\n", "duration": 0.5}],
  "task_complete": false
}`;
