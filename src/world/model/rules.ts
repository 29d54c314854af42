import { z } from "zod";

/**
 * The tunable rules of a run. They live in the world state (so the state digest covers them) and
 * in the run file (so a replay plays by the same rules).
 */
export const rulesSchema = z.strictObject({
  /** How far an agent sees (Chebyshev tiles): its observation and the targets its tools may pick. */
  viewRadius: z.number().int().min(1).max(64),
  /** How many tiles an agent may walk in one call, all walking of the call together. */
  maxMoveTiles: z.number().int().min(1).max(10_000),
  /** Every active agent regains 1 hp at the end of every this many rounds (0: never). */
  regenEveryRounds: z.number().int().min(0).max(1000),
  /** Rounds an agent sits out after it is defeated (it wakes at the spawn point with full hp). */
  respawnRounds: z.number().int().min(0).max(1000),
  /** Tiles an aggressive mob moves per round toward its target (or back home). */
  mobStepTiles: z.number().int().min(0).max(16),
  /** How far (Chebyshev) a mob may stray from its spawn point while chasing. */
  mobLeash: z.number().int().min(0).max(32),
  /**
   * No communication (the no-comm baseline): chat and transfer_items are refused and teammates
   * are left out of observations. Absent (not false) by default, so runs and digests without it
   * are as before.
   */
  noComm: z.literal(true).optional(),
  /**
   * The shared-plan baseline: chat only in round 0 (tick 0), refused afterwards; transfers stay
   * allowed (handing items over is acting, not talking). Absent by default, like noComm.
   */
  sharedPlan: z.literal(true).optional(),
});
export type WorldRules = z.infer<typeof rulesSchema>;

export const DEFAULT_RULES: WorldRules = {
  viewRadius: 8,
  maxMoveTiles: 30,
  regenEveryRounds: 4,
  respawnRounds: 3,
  mobStepTiles: 2,
  mobLeash: 10,
};
