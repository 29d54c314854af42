import { z } from "zod";

/** `<job>/config.json`: everything needed to resume the job exactly as it was started. */
export const jobConfigSchema = z.object({
  schema_version: z.literal(1),
  job_id: z.string(),
  created_at: z.string(),
  tasks: z.array(z.object({ name: z.string(), path: z.string(), checksum: z.string() })),
  agents: z.array(z.string()).min(1),
  models: z.array(z.string().nullable()).min(1),
  attempts: z.number().int().positive(),
  concurrency: z.number().int().positive(),
  timeout_multiplier: z.number().positive(),
  retries: z.number().int().nonnegative(),
  /** Master seed: each trial's hidden stress seed is derived from it, the task and the attempt. */
  seed: z.number().int().nonnegative(),
  sandbox: z.string(),
  agent_options: z.record(z.string(), z.string()),
  /** Continue-until-timeout mode: a declared completion that fails the public checks goes on. */
  until_timeout: z.boolean().optional(),
});
export type JobConfig = z.infer<typeof jobConfigSchema>;
