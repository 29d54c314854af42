import type { Command } from "commander";
import { UserError } from "../../core/index.js";

/** Options that decide what a job's trials are and how they run: its config.json records them. */
const JOB_OPTIONS = [
  ["agent", "--agent"],
  ["model", "--model"],
  ["attempts", "--attempts"],
  ["timeoutMultiplier", "--timeout-multiplier"],
  ["retries", "--retries"],
  ["seed", "--seed"],
  ["sandbox", "--sandbox"],
  ["agentOpt", "--agent-opt"],
  ["baseUrl", "--base-url"],
  ["untilTimeout", "--until-timeout"],
  ["maxTokens", "--max-tokens"],
  ["maxCost", "--max-cost"],
] as const;

/**
 * --resume runs the job as its config.json records it. An option that would change it (another
 * agent, more attempts, other tasks) was silently dropped: the job ended with exit 0 and none of
 * the trials asked for, so it is refused; a new job is the way to run them.
 */
export function refuseJobOptionsOnResume(paths: string[], cmd: Command): void {
  const given: string[] = JOB_OPTIONS.filter(([key]) => cmd.getOptionValueSource(key) === "cli").map(
    ([, flag]) => flag,
  );
  if (paths.length > 0) given.unshift("task paths");
  if (given.length === 0) return;
  throw new UserError(
    `--resume continues a job as its config.json records it; ${given.join(", ")} cannot change it: start a new job (--job NAME) for other trials`,
  );
}
