import { UserError } from "../../core/index.js";
// defaults.ts imports nothing: options are checked when the trial kind registers, before the world loads.
import { DEFAULT_CCE_SAMPLES } from "../cce/defaults.js";

/** The agent option naming how many calls the counterfactual check replays (per side; 0: none). */
export const CCE_SAMPLES_OPTION = "world_cce_samples";

/**
 * Calls sampled inside and outside the closure for a world trial's counterfactual check: the agent
 * option `world_cce_samples` (a whole number, at most 1,000), DEFAULT_CCE_SAMPLES when absent.
 * A long run replays in full for every sample, so a job of long runs may want fewer.
 */
export function cceSamplesOf(options: Readonly<Record<string, string>>): number {
  const text = options[CCE_SAMPLES_OPTION];
  if (text === undefined) return DEFAULT_CCE_SAMPLES;
  const n = Number(text);
  if (text.trim() === "" || !Number.isInteger(n) || n < 0 || n > 1000)
    throw new UserError(
      `agent option ${CCE_SAMPLES_OPTION}: expected a whole number from 0 to 1000, got "${text}"`,
    );
  return n;
}
