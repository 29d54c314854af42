import { z } from "zod";
import { UserError } from "../../core/index.js";

/** Loop settings read from `--agent-opt k=v`; model settings are read separately by the models layer. */
export const loopOptionsSchema = z.strictObject({
  max_turns: z.coerce.number().int().positive().default(500),
  /** Wall-clock budget of the loop, excluding time lost to model retries; default: the phase timeout. */
  max_wall_sec: z.coerce.number().positive().optional(),
  /** Summarise older turns once the context is this full (fraction of the model's window). */
  summarize_at: z.coerce.number().gt(0).lt(1).default(0.8),
  /** Byte cap on one observation (terminal output or tool result); head and tail are kept. */
  max_output_bytes: z.coerce.number().int().positive().default(10_000),
  /** Longest wait allowed for one command. */
  max_command_sec: z.coerce.number().positive().default(180),
});
export type LoopOptions = z.output<typeof loopOptionsSchema>;

export const LOOP_OPTION_KEYS: readonly string[] = Object.keys(loopOptionsSchema.shape);

export function parseLoopOptions(options: Record<string, string>): LoopOptions {
  const picked: Record<string, string> = {};
  for (const k of LOOP_OPTION_KEYS) {
    const v = options[k];
    if (v !== undefined) picked[k] = v;
  }
  const r = loopOptionsSchema.safeParse(picked);
  if (!r.success) {
    const issue = r.error.issues[0];
    const key = String(issue?.path[0] ?? "");
    throw new UserError(`agent option ${key}=${picked[key] ?? ""}: ${issue?.message ?? "invalid"}`);
  }
  return r.data;
}
