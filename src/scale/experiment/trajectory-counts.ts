import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";

/** The parts of an agent/trajectory.json (docs/store.md) counted here; other fields are ignored. */
const countedTrajectorySchema = z.object({
  steps: z.array(
    z.object({
      source: z.string(),
      tool_calls: z.array(z.unknown()).optional(),
    }),
  ),
});

/** Trajectories past this size are not read (counted as absent). */
const MAX_BYTES = 64 * 1024 * 1024;

export interface TrialCounts {
  /** Agent steps of the trajectory; without one, the turns the agent reported in its usage. */
  turns: number;
  /** Tool calls over the trajectory's agent steps; null when the trial has no readable trajectory. */
  toolCalls: number | null;
  trajectory: boolean;
}

/** Turns and tool calls of one stored trial, from `<trial>/agent/trajectory.json`. */
export function countTrial(trialDir: string, usageTurns: number): TrialCounts {
  const path = join(trialDir, "agent", "trajectory.json");
  if (!existsSync(path) || statSync(path).size > MAX_BYTES) {
    return { turns: usageTurns, toolCalls: null, trajectory: false };
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { turns: usageTurns, toolCalls: null, trajectory: false };
  }
  const parsed = countedTrajectorySchema.safeParse(raw);
  if (!parsed.success) return { turns: usageTurns, toolCalls: null, trajectory: false };
  const agentSteps = parsed.data.steps.filter((s) => s.source === "agent");
  return {
    turns: agentSteps.length,
    toolCalls: agentSteps.reduce((n, s) => n + (s.tool_calls?.length ?? 0), 0),
    trajectory: true,
  };
}
